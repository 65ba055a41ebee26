//===- ScalarReplaceLegality.cpp - may an element live in a register? ----===//

#include "transforms/ScalarReplace/ScalarReplaceLegality.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/DistinctBuffers.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace optiml;
using namespace clang;

namespace {

/// The pointer parameter \p A subscripts directly (`C[...]`), or null.
const ParmVarDecl *bufferOf(const ArraySubscriptExpr &A) {
  const auto *Ref = dyn_cast<DeclRefExpr>(A.getBase()->IgnoreParenImpCasts());
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  return P && P->getType()->isPointerType() ? P : nullptr;
}

llvm::FoldingSetNodeID keyOf(const Expr &Index, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID Key;
  Index.IgnoreParenImpCasts()->Profile(Key, Ctx, /*Canonical=*/true);
  return Key;
}

/// What the loop does with one buffer.
struct BufferUses {
  const ParmVarDecl *Buffer = nullptr;
  std::vector<const ArraySubscriptExpr *> Subscripts;
  /// A use other than `Buffer[index]` (passed on, offset, compared).
  const Expr *Escape = nullptr;
  bool Writes = false;
};

class LoopScan {
public:
  LoopScan(const Stmt &Loop, ASTContext &Ctx) : Loop(Loop), Ctx(Ctx) {}

  llvm::Expected<ScalarReplacePlan> run(const FunctionDecl &Kernel,
                                        llvm::StringRef Site);

private:
  void scan();
  llvm::Error checkControl();
  /// Why the element \p U may not be kept, or empty when it may.
  std::string whyNot(const BufferUses &U, const Expr *&Where);
  llvm::Expected<std::string>
  entryTest(llvm::ArrayRef<ReplacedElement> Elements);
  bool accessedJustBefore(const ReplacedElement &E);

  const Stmt &Loop;
  ASTContext &Ctx;
  std::vector<BufferUses> Buffers;
  std::vector<const VarDecl *> LocalPointers;
};

void LoopScan::scan() {
  auto UsesOf = [&](const ParmVarDecl *P) -> BufferUses & {
    for (BufferUses &U : Buffers)
      if (U.Buffer == P)
        return U;
    Buffers.push_back({P, {}, nullptr, false});
    return Buffers.back();
  };
  llvm::SmallPtrSet<const Expr *, 16> Bases;
  forEachNode(&Loop, [&](const Stmt *N) {
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(N))
      if (const ParmVarDecl *P = bufferOf(*A)) {
        BufferUses &U = UsesOf(P);
        U.Subscripts.push_back(A);
        Bases.insert(A->getBase()->IgnoreParenImpCasts());
        LvalueUse K = lvalueUseOf(*A, Ctx);
        U.Writes |= K == LvalueUse::Write || K == LvalueUse::ReadWrite;
        if (K == LvalueUse::Escapes && !U.Escape)
          U.Escape = A;
      }
  });
  forEachNode(&Loop, [&](const Stmt *N) {
    const auto *Ref = dyn_cast<DeclRefExpr>(N);
    if (!Ref || !Ref->getType()->isPointerType() || Bases.contains(Ref))
      return;
    if (const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl())) {
      BufferUses &U = UsesOf(P);
      U.Writes = true; // Anything may happen through an escaped pointer.
      if (!U.Escape)
        U.Escape = Ref;
    } else if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl())) {
      LocalPointers.push_back(V);
    }
  });
}

llvm::Error LoopScan::checkControl() {
  const Stmt *Bad = nullptr;
  std::string What;
  forEachNode(&Loop, [&](const Stmt *N) {
    if (Bad)
      return;
    if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr>(N)) {
      Bad = N;
      What = "this jump leaves the loop past the store that ends it";
    } else if (const auto *C = dyn_cast<CallExpr>(N);
               C && isCooperativeCall(*C)) {
      Bad = N;
      What = "the loop calls '" + C->getDirectCallee()->getName().str() +
             "', so other threads may look at the buffer between iterations";
    }
  });
  if (Bad)
    return illegalAt(Bad->getBeginLoc(), Ctx, What);
  return llvm::Error::success();
}

std::string LoopScan::whyNot(const BufferUses &U, const Expr *&Where) {
  const std::string Name = "'" + U.Buffer->getName().str() + "'";
  Where = U.Escape ? U.Escape : U.Subscripts.front();
  if (U.Escape)
    return Name + " is used other than as " + Name +
           "[index] in the loop (its address may escape)";
  if (U.Buffer->getType()->getPointeeType().isVolatileQualified())
    return Name + " is volatile";
  llvm::FoldingSetNodeID First = keyOf(*U.Subscripts.front()->getIdx(), Ctx);
  for (const ArraySubscriptExpr *A : U.Subscripts)
    if (keyOf(*A->getIdx(), Ctx) != First) {
      Where = A;
      return Name + " is accessed at '" + textOf(A->getSourceRange(), Ctx) +
             "' and at '" +
             textOf(U.Subscripts.front()->getSourceRange(), Ctx) +
             "' in the loop, which may be the same element";
    }
  if (auto Why = whyLoopVariant(*U.Subscripts.front()->getIdx(), Loop, Ctx)) {
    Where = Why->Where;
    return "the index of " + Name + " " + Why->Reason;
  }
  for (const VarDecl *V : LocalPointers)
    if (V->getInit() && llvm::any_of(nodesOf<DeclRefExpr>(V->getInit()),
                                     [&](const DeclRefExpr *R) {
                                       return R->getDecl() == U.Buffer;
                                     })) {
      Where = U.Subscripts.front();
      return "the loop uses '" + V->getName().str() + "', which points into " +
             Name;
    }
  return "";
}

/// Whether a statement right before the loop, in the same block, accesses
/// \p E's element unconditionally (so loading it cannot fault).
bool LoopScan::accessedJustBefore(const ReplacedElement &E) {
  DynTypedNode Node = DynTypedNode::create(Loop);
  if (const auto *A = parentOf(Node, Ctx).get<AttributedStmt>())
    Node = DynTypedNode::create(*A);
  const auto *Block = parentOf(Node, Ctx).get<CompoundStmt>();
  if (!Block)
    return false;
  const Stmt *Prev = nullptr;
  for (const Stmt *S : Block->body()) {
    if (S == Node.get<Stmt>())
      break;
    Prev = S;
  }
  const auto *Access = dyn_cast_or_null<Expr>(Prev);
  if (!Access)
    return false;
  // Every part of an expression statement runs unless a branch skips it.
  bool Branches = false, Found = false;
  llvm::FoldingSetNodeID Key = keyOf(*E.Uses.front()->getIdx(), Ctx);
  forEachNode(Access, [&](const Stmt *N) {
    if (isa<ConditionalOperator, BinaryConditionalOperator>(N))
      Branches = true;
    if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isLogicalOp())
      Branches = true;
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(N))
      Found |= bufferOf(*A) == E.Buffer && keyOf(*A->getIdx(), Ctx) == Key;
  });
  return Found && !Branches;
}

llvm::Expected<std::string>
LoopScan::entryTest(llvm::ArrayRef<ReplacedElement> Elements) {
  const ReplacedElement &First = Elements.front();
  if (isa<DoStmt>(Loop) ||
      llvm::all_of(Elements, [&](const ReplacedElement &E) {
        return accessedJustBefore(E);
      }))
    return "";
  const auto *For = dyn_cast<ForStmt>(&Loop);
  if (!For)
    return illegalAt(Loop.getBeginLoc(), Ctx,
                     "the loop may not run at all, so loading '" +
                         textOf(First.Uses.front()->getSourceRange(), Ctx) +
                         "' before it could read past the buffer");
  auto L = analyzeLoop(*For, Ctx);
  if (!L)
    return L.takeError();
  if (L->TripCount && *L->TripCount > 0)
    return "";
  if (L->Lower->HasSideEffects(Ctx) || L->Bound->HasSideEffects(Ctx))
    return illegalAt(For->getBeginLoc(), Ctx,
                     "the loop's bounds have side effects, so its entry test "
                     "cannot guard the load");
  return textOf(L->Lower->getSourceRange(), Ctx) + " " +
         BinaryOperator::getOpcodeStr(L->Cmp).str() + " " +
         textOf(L->Bound->getSourceRange(), Ctx);
}

llvm::Expected<ScalarReplacePlan> LoopScan::run(const FunctionDecl &Kernel,
                                                llvm::StringRef Site) {
  if (!isa<ForStmt, WhileStmt, DoStmt>(Loop))
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "'" + Site + "' is not a for, while or do loop");
  scan();
  ScalarReplacePlan Plan;
  std::string Reason;
  const Expr *Where = nullptr;
  for (const BufferUses &U : Buffers) {
    if (!U.Writes || U.Subscripts.empty())
      continue;
    const Expr *W = nullptr;
    std::string Why = whyNot(U, W);
    if (!Why.empty()) {
      if (Reason.empty())
        Reason = Why, Where = W;
      continue;
    }
    Plan.Elements.push_back(
        {U.Buffer, U.Subscripts,
         U.Buffer->getType()->getPointeeType().getUnqualifiedType()});
  }
  if (Plan.Elements.empty())
    return Reason.empty()
               ? notApplicableAt(Loop.getBeginLoc(), Ctx,
                                 "'" + Site +
                                     "' writes no buffer element at an index "
                                     "it keeps")
               : notApplicableAt(Where->getBeginLoc(), Ctx, Reason);
  if (llvm::Error E = checkControl())
    return E;
  bool AllRestrict = llvm::all_of(Plan.Elements, [](const ReplacedElement &E) {
    return E.Buffer->getType().isRestrictQualified();
  });
  if (!AllRestrict)
    if (llvm::Error E = checkDistinctBuffers(Kernel, Ctx))
      return E;
  Plan.RestsOnSpec =
      !AllRestrict && !KernelLaunches(Ctx, Kernel).showsArguments();
  auto Test = entryTest(Plan.Elements);
  if (!Test)
    return Test.takeError();
  Plan.EntryTest = *Test;
  return Plan;
}

} // namespace

llvm::Expected<ScalarReplacePlan>
ScalarReplaceLegality::check(const Stmt &Loop, llvm::StringRef Site,
                             const FunctionDecl &Kernel, ASTContext &Ctx) {
  if (Loop.getBeginLoc().isMacroID() ||
      !Ctx.getSourceManager().isInMainFile(Loop.getBeginLoc()))
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "'" + Site + "' is written inside a macro");
  return LoopScan(Loop, Ctx).run(Kernel, Site);
}
