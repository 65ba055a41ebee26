//===- GuardSplit.cpp - run a guarded loop in every thread ---------------===//

#include "transforms/StageShared/GuardSplit.h"
#include "optiml/Analysis/Legality/BoundsGuard.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/GuardTerms.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace optiml;
using namespace clang;

namespace {

/// What a condition's value depends on. Ordered: a mix takes the larger.
enum class ValueKind { Uniform, Thread, Opaque };

/// Classifies expressions by what their value depends on.
class ValueKinds {
public:
  ValueKinds(const FunctionDecl &Kernel, ASTContext &Ctx)
      : Kernel(Kernel), Ctx(Ctx) {}

  /// Opaque when \p E reads memory, calls something, or reads a variable
  /// that is assigned after its definition (a repeated evaluation could
  /// differ); Thread when it reads threadIdx, directly or through locals;
  /// Uniform otherwise.
  ValueKind of(const Expr &E, unsigned Depth = 0) const;

private:
  ValueKind ofVar(const VarDecl &V, unsigned Depth) const;

  const FunctionDecl &Kernel;
  ASTContext &Ctx;
};

/// Fills a GuardSplit from the path between the kernel's body and the loop.
class Splitter {
public:
  Splitter(const FunctionDecl &Kernel, const ForStmt &Loop,
           const ReturnFold &Fold, bool Staged, ASTContext &Ctx)
      : Kernel(Kernel), Loop(Loop), Fold(Fold), Staged(Staged), Ctx(Ctx),
        Kinds(Kernel, Ctx) {}

  llvm::Expected<GuardSplit> run();

private:
  llvm::Error step(const Stmt &Parent, const Stmt &Child);
  llvm::Error enterIf(const IfStmt &If, const Stmt &Child);
  llvm::Error refuseNesting(const Stmt &Parent);
  llvm::Error checkTerms(const IfStmt &If);
  llvm::Error guardSiblings(const CompoundStmt &Block, const Stmt &Child);
  llvm::Error guardDeclaration(const DeclStmt &Decls);
  llvm::Error checkHiding(const CompoundStmt &Block);
  llvm::Error noBarrier(const Stmt &S, const llvm::Twine &Why);
  std::string live() const { return llvm::join(Conds, " && "); }

  const FunctionDecl &Kernel;
  const ForStmt &Loop;
  const ReturnFold &Fold;
  bool Staged;
  ASTContext &Ctx;
  ValueKinds Kinds;
  GuardSplit Split;
  /// The conditions that hold at the current point of the path, as text,
  /// and the variables they read (no declaration on the path may hide one).
  std::vector<std::string> Conds;
  llvm::StringSet<> CondVars;
};

} // namespace

ValueKind ValueKinds::ofVar(const VarDecl &V, unsigned Depth) const {
  if (isReassigned(V, *Kernel.getBody(), Ctx))
    return ValueKind::Opaque;
  if (isa<ParmVarDecl>(V))
    return ValueKind::Uniform;
  if (!V.hasLocalStorage()) // A file-scope constant is the same everywhere.
    return V.getType().isConstQualified() ? ValueKind::Uniform
                                          : ValueKind::Opaque;
  if (!V.getInit() || Depth > 16)
    return ValueKind::Opaque;
  return of(*V.getInit(), Depth + 1);
}

ValueKind ValueKinds::of(const Expr &E, unsigned Depth) const {
  if (BoundsGuard::touchesMemory(&E))
    return ValueKind::Opaque;
  ValueKind K = ValueKind::Uniform;
  forEachNode(&E, [&](const Stmt *N) {
    ValueKind Here = ValueKind::Uniform;
    if (isBuiltinRefNode(N)) {
      if (asBuiltinRef(cast<Expr>(N))->Which == BuiltinRef::ThreadIdx)
        Here = ValueKind::Thread;
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(N)) {
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        Here = ofVar(*V, Depth);
    }
    K = std::max(K, Here);
  });
  return K;
}

/// Where staging can put a loop, for refusals.
static constexpr llvm::StringLiteral Placement =
    "staging needs it at the top of the kernel body or under bounds guards, "
    "where every thread can reach its barriers";

/// The condition's variables, which the repeated text must still name.
static void collectVars(const Expr &E, llvm::StringSet<> &Out) {
  for (const DeclRefExpr *Ref : nodesOf<DeclRefExpr>(&E))
    if (isa<VarDecl>(Ref->getDecl()))
      Out.insert(Ref->getDecl()->getName());
}

llvm::Expected<GuardSplit> Splitter::run() {
  // The path from the loop up to the kernel's body.
  std::vector<const Stmt *> Path = {&Loop};
  while (true) {
    const Stmt *P =
        parentOf(DynTypedNode::create(*Path.back()), Ctx).get<Stmt>();
    if (!P)
      return illegalAt(Loop.getBeginLoc(), Ctx,
                       "the loop is not in a kernel body");
    if (P == Kernel.getBody())
      break;
    Path.push_back(P);
  }
  std::reverse(Path.begin(), Path.end());
  Split.Top = Path.front();
  for (const IfStmt *If : Fold.EarlyReturns) {
    Conds.push_back("!(" + textOf(If->getCond()->getSourceRange(), Ctx) + ")");
    collectVars(*If->getCond(), CondVars);
  }
  for (size_t I = 0; I + 1 < Path.size(); ++I)
    if (llvm::Error E = step(*Path[I], *Path[I + 1]))
      return E;
  Split.Live = live();
  if (!Split.Live.empty() && !Staged)
    if (llvm::Error E = noBarrier(*Loop.getBody(),
                                  "the loop's body would run under the guard"))
      return E;
  return std::move(Split);
}

llvm::Error Splitter::step(const Stmt &Parent, const Stmt &Child) {
  if (const auto *Block = dyn_cast<CompoundStmt>(&Parent)) {
    if (llvm::Error E = checkHiding(*Block))
      return E;
    return Conds.empty() ? llvm::Error::success()
                         : guardSiblings(*Block, Child);
  }
  if (const auto *If = dyn_cast<IfStmt>(&Parent))
    return enterIf(*If, Child);
  // The loop's own pragma (`#pragma unroll` before it) is part of it.
  if (const auto *Pragma = dyn_cast<AttributedStmt>(&Parent);
      Pragma && Pragma->getSubStmt() == &Child && &Child == &Loop)
    return llvm::Error::success();
  return refuseNesting(Parent);
}

/// Any other statement on the path runs the loop only for some threads or
/// more than once.
llvm::Error Splitter::refuseNesting(const Stmt &Parent) {
  const Stmt *Inner = &Parent;
  if (const auto *Pragma = dyn_cast<AttributedStmt>(Inner))
    Inner = Pragma->getSubStmt();
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Inner)) {
    const auto *For = dyn_cast<ForStmt>(Inner);
    return illegalAt(Loop.getBeginLoc(), Ctx,
                     llvm::Twine("the loop is nested in another loop; ") +
                         Placement +
                         (For && copyLoopTrips(*For, Ctx)
                              ? "; coarsening copies a guarded body whole "
                                "when statements follow the guard (it jams "
                                "the copies inside the loop when the guard "
                                "is an early return or ends the kernel)"
                              : ""));
  }
  return illegalAt(Loop.getBeginLoc(), Ctx,
                   llvm::Twine("the loop is nested in other statements; ") +
                       Placement);
}

llvm::Error Splitter::enterIf(const IfStmt &If, const Stmt &Child) {
  if (If.getElse() || If.getThen() != &Child)
    return illegalAt(If.getBeginLoc(), Ctx,
                     "the 'if' around the loop has an 'else' branch; "
                     "staging runs the loop in every thread and keeps "
                     "only guards without one");
  if (If.hasInitStorage() || If.hasVarStorage())
    return illegalAt(If.getBeginLoc(), Ctx,
                     "the 'if' around the loop declares a variable in its "
                     "condition");
  if (Kinds.of(*If.getCond()) == ValueKind::Uniform) {
    Split.Kept.push_back(&If);
    return llvm::Error::success();
  }
  if (Staged)
    return illegalAt(If.getBeginLoc(), Ctx,
                     "the staged loop is under a guard that differs between "
                     "threads, so its barriers are not reached by all");
  if (llvm::Error E = checkTerms(If))
    return E;
  Split.Opened.push_back(&If);
  Conds.push_back(textOf(If.getCond()->getSourceRange(), Ctx));
  collectVars(*If.getCond(), CondVars);
  return llvm::Error::success();
}

/// A guard that differs between threads is repeated where its work runs,
/// and its terms about the staged rows limit the loads: each conjunct is
/// the same for the whole block or a bound check of the thread's indices.
llvm::Error Splitter::checkTerms(const IfStmt &If) {
  std::vector<GuardTerm> Terms;
  splitConjuncts(If.getCond(), false, Terms);
  for (const GuardTerm &T : Terms) {
    std::string Text = "'" + T.str(Ctx) + "'";
    ValueKind K = Kinds.of(*T.Cond);
    if (K == ValueKind::Opaque)
      return illegalAt(T.Cond->getBeginLoc(), Ctx,
                       "the guard " + Text +
                           " reads memory or a variable that changes, so it "
                           "cannot be repeated where the loop's work runs");
    const auto *Cmp = dyn_cast<BinaryOperator>(T.Cond->IgnoreParenImpCasts());
    if (K == ValueKind::Thread && (!Cmp || !Cmp->isRelationalOp()))
      return illegalAt(T.Cond->getBeginLoc(), Ctx,
                       "the guard " + Text +
                           " is not a bound check (<, <=, >, >=) of the "
                           "thread's indices");
  }
  return llvm::Error::success();
}

/// The conditions are repeated as written inside the blocks on the path: a
/// declaration there must not give one of their names another meaning.
llvm::Error Splitter::checkHiding(const CompoundStmt &Block) {
  if (Conds.empty())
    return llvm::Error::success();
  for (const Stmt *S : Block.body())
    if (const auto *Decls = dyn_cast<DeclStmt>(S))
      for (const Decl *D : Decls->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && CondVars.contains(V->getName()))
          return illegalAt(V->getLocation(), Ctx,
                           "'" + V->getName() +
                               "' hides the variable of that name that the "
                               "guard reads, and the guard is repeated "
                               "below it");
  return llvm::Error::success();
}

llvm::Error Splitter::noBarrier(const Stmt &S, const llvm::Twine &Why) {
  for (const CallExpr *C : nodesOf<CallExpr>(&S))
    if (isCooperativeCall(*C))
      return illegalAt(C->getBeginLoc(), Ctx,
                       "this barrier would not be reached by every thread: " +
                           Why);
  return llvm::Error::success();
}

llvm::Error Splitter::guardSiblings(const CompoundStmt &Block,
                                    const Stmt &Child) {
  for (const Stmt *S : Block.body()) {
    if (S == &Child || isa<NullStmt>(S))
      continue;
    if (llvm::Error E = noBarrier(*S, "it is under the guard"))
      return E;
    if (const auto *Decls = dyn_cast<DeclStmt>(S)) {
      if (llvm::Error E = guardDeclaration(*Decls))
        return E;
      continue;
    }
    if (isa<LabelStmt>(S))
      return illegalAt(S->getBeginLoc(), Ctx,
                       "a labeled statement under the guard cannot be "
                       "guarded on its own");
    Split.Statements.push_back({S, live()});
  }
  return llvm::Error::success();
}

/// A declaration stays where it is, for its scope; one whose initializer
/// reads memory gets its value only where the guard holds.
llvm::Error Splitter::guardDeclaration(const DeclStmt &Decls) {
  return guardDeclarations(Decls, live(), "under the guard", Split.Declarations,
                           Ctx);
}

llvm::Expected<GuardSplit> GuardSplitter::split(const FunctionDecl &Kernel,
                                                const ForStmt &Loop,
                                                const ReturnFold &Fold,
                                                bool Staged, ASTContext &Ctx) {
  return Splitter(Kernel, Loop, Fold, Staged, Ctx).run();
}
