//===- FusionLegality.cpp - may two loops become one? --------------------===//

#include "transforms/Fusion/FusionLegality.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/LoopDependence.h"
#include "optiml/Analysis/Legality/StmtAccesses.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/FoldingSet.h"

using namespace optiml;
using namespace clang;

namespace {

/// The facts fusion decides on, gathered once.
struct Parts {
  StmtAccesses Whole1, Whole2; ///< Each loop with its header.
  StmtAccesses Body1, Body2;   ///< Body2's offsets in the first IV.
  StmtAccesses Between;        ///< The statements between the loops.
};

} // namespace

static std::string quoted(const Stmt &S, const ASTContext &Ctx) {
  return "'" + textOf(S.getSourceRange(), Ctx) + "'";
}

static bool writtenInMainFile(const ForStmt &For, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (SourceLocation L :
       {For.getBeginLoc(), For.getRParenLoc(), For.getEndLoc()})
    if (!L.isValid() || L.isMacroID() || !SM.isWrittenInMainFile(L))
      return false;
  return true;
}

llvm::Expected<CanonicalLoop>
FusionLegality::nextLoop(const ForStmt &First, llvm::StringRef Site,
                         std::vector<const Stmt *> &Between, ASTContext &Ctx) {
  const auto *Block =
      parentOf(DynTypedNode::create(First), Ctx).get<CompoundStmt>();
  if (!Block)
    return notApplicableAt(First.getBeginLoc(), Ctx,
                           "'" + Site +
                               "' is not directly in a block, so no loop "
                               "follows it there");
  const Stmt *const *It = llvm::find(Block->body(), &First);
  for (++It; It != Block->body_end(); ++It) {
    const Stmt *Inner = *It;
    if (const auto *A = dyn_cast<AttributedStmt>(Inner))
      Inner = A->getSubStmt();
    if (!isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Inner)) {
      Between.push_back(*It);
      continue;
    }
    std::string Next = "the loop after '" + Site.str() + "'";
    if (Inner != *It)
      return notApplicableAt(
          cast<AttributedStmt>(*It)->getAttrs().front()->getLocation(), Ctx,
          Next + " has a loop pragma or attribute, which the fused loop "
                 "could not keep");
    const auto *For = dyn_cast<ForStmt>(Inner);
    if (!For)
      return notApplicableAt(Inner->getBeginLoc(), Ctx,
                             Next + " is " + loopKindOf(*Inner) +
                                 "; fusion merges for-loops");
    if (!writtenInMainFile(*For, Ctx))
      return notApplicableAt(For->getBeginLoc(), Ctx,
                             Next + " is written inside a macro");
    return analyzeLoop(*For, Ctx);
  }
  return notApplicableAt(First.getBeginLoc(), Ctx,
                         "no loop follows '" + Site + "' in its block");
}

/// Whether \p X and \p Y have the same value wherever both are evaluated:
/// the same expression, or the same polynomial.
static bool sameValue(const Expr &X, const Expr &Y, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID A, B;
  X.IgnoreParenImpCasts()->Profile(A, Ctx, /*Canonical=*/true);
  Y.IgnoreParenImpCasts()->Profile(B, Ctx, /*Canonical=*/true);
  if (A == B)
    return true;
  if (!X.getType()->isIntegerType() || !Y.getType()->isIntegerType())
    return false;
  auto &C = const_cast<ASTContext &>(Ctx);
  auto P = IndexPolynomial::of(X, C), Q = IndexPolynomial::of(Y, C);
  bool Same = P && Q && *P == *Q;
  if (!P)
    llvm::consumeError(P.takeError());
  if (!Q)
    llvm::consumeError(Q.takeError());
  return Same;
}

llvm::Error FusionLegality::checkSpace(const CanonicalLoop &A,
                                       const CanonicalLoop &B,
                                       ASTContext &Ctx) {
  auto Differ = [&](const Stmt &Where, const llvm::Twine &What) {
    return notApplicableAt(Where.getBeginLoc(), Ctx,
                           "the loops " + What +
                               "; fusion needs the same iterations");
  };
  QualType TA = A.IV->getType().getUnqualifiedType(),
           TB = B.IV->getType().getUnqualifiedType();
  if (!Ctx.hasSameType(TA, TB))
    return Differ(*B.For, "count with different types ('" + TA.getAsString() +
                              "' and '" + TB.getAsString() + "')");
  if (A.Step != B.Step)
    return Differ(*B.For->getInc(), "step differently (by " +
                                        llvm::Twine(A.Step) + " and by " +
                                        llvm::Twine(B.Step) + ")");
  if (A.Cmp != B.Cmp)
    return Differ(*B.For->getCond(),
                  "compare differently ('" +
                      BinaryOperator::getOpcodeStr(A.Cmp) + "' and '" +
                      BinaryOperator::getOpcodeStr(B.Cmp) + "')");
  if (!sameValue(*A.Lower, *B.Lower, Ctx))
    return Differ(*B.Lower, "start at different values (" +
                                quoted(*A.Lower, Ctx) + " and " +
                                quoted(*B.Lower, Ctx) + ")");
  if (!sameValue(*A.Bound, *B.Bound, Ctx))
    return Differ(*B.Bound, "end at different bounds (" +
                                quoted(*A.Bound, Ctx) + " and " +
                                quoted(*B.Bound, Ctx) + ")");
  return llvm::Error::success();
}

/// Success when the loops' induction variables can become one: the
/// second's is declared in its loop (its end value is not needed after
/// it), or both loops count with the same variable.
static llvm::Error checkInductionVariables(const CanonicalLoop &A,
                                           const CanonicalLoop &B,
                                           ASTContext &Ctx) {
  if (A.IV == B.IV || isa<DeclStmt>(B.For->getInit()))
    return llvm::Error::success();
  return illegalAt(B.For->getInit()->getBeginLoc(), Ctx,
                   "'" + B.IV->getName() +
                       "' is declared before the second loop, which leaves "
                       "it at its end value; the fused loop counts with '" +
                       A.IV->getName() + "'");
}

static std::vector<const VarDecl *> mentioned(const StmtAccesses &A) {
  std::vector<const VarDecl *> All(A.used().begin(), A.used().end());
  All.insert(All.end(), A.declared().begin(), A.declared().end());
  return All;
}

/// The variables \p Body declares directly in its block.
static std::vector<const VarDecl *> topLevelDecls(const Stmt &Body) {
  std::vector<const VarDecl *> Out;
  const auto *C = dyn_cast<CompoundStmt>(&Body);
  for (const Stmt *S : C ? C->body() : llvm::ArrayRef<Stmt *>())
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Out.push_back(V);
  return Out;
}

llvm::Error FusionLegality::checkNames(FusionPlan &Plan,
                                       const StmtAccesses &Body2,
                                       ASTContext &Ctx) {
  const VarDecl &I = *Plan.First.IV, &J = *Plan.Second.IV;
  if (I.getName() != J.getName()) {
    for (const VarDecl *V : mentioned(Body2))
      if (V != &J && V->getName() == I.getName()) {
        const DeclRefExpr *Use = Body2.firstUse(*V);
        return notApplicableAt(Use ? Use->getBeginLoc() : V->getLocation(), Ctx,
                               "the second loop's body uses the name '" +
                                   I.getName() +
                                   "' for another variable; its induction "
                                   "variable '" +
                                   J.getName() + "' cannot take that name");
      }
    Plan.Renamed = usesOf(J, *Plan.Second.For->getBody(), Ctx);
  }
  std::vector<const VarDecl *> Names2 = mentioned(Body2);
  for (const VarDecl *D : topLevelDecls(*Plan.First.For->getBody()))
    for (const VarDecl *V : Names2)
      if (V->getName() == D->getName())
        Plan.WrapFirstBody = true;
  return llvm::Error::success();
}

llvm::Error FusionLegality::checkBetween(llvm::ArrayRef<const Stmt *> Between,
                                         const StmtAccesses &Mid,
                                         const StmtAccesses &Whole1,
                                         LoopDependence &Dep, ASTContext &Ctx) {
  const char *Moved = "; fused, the first loop would run after them";
  if (const auto &H = Mid.hazard())
    return illegalAt(H->Where->getBeginLoc(), Ctx,
                     "the statements between the loops have " + H->What +
                         Moved);
  if (auto V = LoopDependence::firstSharedVariable(Whole1, Mid)) {
    std::string Name = "'" + V->Var->getName().str() + "'";
    return V->WrittenByEarlier
               ? illegalAt(V->Use->getBeginLoc(), Ctx,
                           Name +
                               " is written by the first loop and used "
                               "between the loops" +
                               Moved)
               : illegalAt(V->Write->getBeginLoc(), Ctx,
                           Name +
                               " is written between the loops and used "
                               "by the first loop" +
                               Moved);
  }
  // The first loop's text moves after these statements: a name they
  // declare would capture the first loop's use of another variable.
  for (const Stmt *S : Between)
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        for (const VarDecl *V : Whole1.used())
          if (V->getName() == cast<NamedDecl>(D)->getName())
            return notApplicableAt(D->getLocation(), Ctx,
                                   "'" + V->getName() +
                                       "' is declared between the loops and "
                                       "names another variable in the first "
                                       "loop, which fusion moves after it");
  std::string Why;
  for (const MemoryAccess &X : Mid.memory())
    for (const MemoryAccess &Y : Whole1.memory())
      if (Dep.mayOverlap(X, Y, Why))
        return illegalAt(X.Where->getBeginLoc(), Ctx,
                         quoted(*X.Where, Ctx) + " between the loops and " +
                             quoted(*Y.Where, Ctx) +
                             " in the first loop may touch the same memory (" +
                             Why + ")" + Moved);
  return llvm::Error::success();
}

static llvm::Error refuseShared(const VariableConflict &V, ASTContext &Ctx) {
  std::string Name = "'" + V.Var->getName().str() + "'";
  if (V.WrittenByEarlier)
    return illegalAt(V.Use->getBeginLoc(), Ctx,
                     Name + " is written by the first loop and used by the "
                            "second; fused, the second would use it before "
                            "the first loop is done");
  return illegalAt(V.Write->getBeginLoc(), Ctx,
                   Name + " is written by the second loop and used by the "
                          "first; fused, the first loop would see those "
                          "writes");
}

static llvm::Error refuseConflict(const DependenceConflict &C,
                                  const ASTContext &Ctx) {
  std::string Later = quoted(*C.Later->Where, Ctx) + " (second loop)";
  std::string Earlier = quoted(*C.Earlier->Where, Ctx) + " (first loop)";
  SourceLocation Loc = C.Later->Where->getBeginLoc();
  switch (C.K) {
  case DependenceConflict::Reversed:
    return illegalAt(Loc, Ctx,
                     Later + " reaches the element that " + Earlier +
                         " reaches " + llvm::Twine(C.Distance) +
                         (C.Distance == 1 ? " iteration" : " iterations") +
                         " later; fused, the second loop's access would run "
                         "first");
  case DependenceConflict::EveryIteration:
    return illegalAt(Loc, Ctx,
                     Later + " and " + Earlier +
                         " reach the same element on every iteration; fusion "
                         "would interleave them");
  case DependenceConflict::Unproven:
    break;
  }
  return illegalAt(Loc, Ctx,
                   "OptiML cannot prove that " + Later + " and " + Earlier +
                       " keep their order when fused: " + C.Why);
}

/// Success when the second loop's start and bound, evaluated after the
/// first loop, read nothing it changes: fused, only the first loop's are
/// evaluated, before it runs.
static llvm::Error checkSecondHeader(const CanonicalLoop &First,
                                     const CanonicalLoop &Second,
                                     ASTContext &Ctx) {
  for (auto [Part, What] : {std::pair(Second.Lower, "initial value"),
                            std::pair(Second.Bound, "bound")})
    if (auto Why = whyLoopVariant(*Part, *First.For, Ctx))
      return illegalAt(Why->Where->getBeginLoc(), Ctx,
                       "the second loop's " + llvm::Twine(What) + " " +
                           Why->Reason +
                           " (the first loop); fused, it would be read before "
                           "that loop runs");
  return llvm::Error::success();
}

static llvm::Error checkHazards(const StmtAccesses &Body1,
                                const StmtAccesses &Body2, ASTContext &Ctx) {
  for (const StmtAccesses *Body : {&Body1, &Body2})
    if (const auto &H = Body->hazard())
      return illegalAt(
          H->Where->getBeginLoc(), Ctx,
          std::string(Body == &Body1 ? "the first" : "the second") +
              " loop's body has " + H->What +
              "; fusion cannot interleave it with the other "
              "loop");
  return llvm::Error::success();
}

llvm::Expected<FusionPlan> FusionLegality::check(const Site &S,
                                                 ASTContext &Ctx) {
  auto For = rewritableFor(*S.Loop, S.Name, "fusion merges for-loops",
                           "it cannot be rewritten", Ctx);
  if (!For)
    return For.takeError();
  if (const auto *A =
          parentOf(DynTypedNode::create(**For), Ctx).get<AttributedStmt>())
    return notApplicableAt(A->getAttrs().front()->getLocation(), Ctx,
                           "'" + S.Name +
                               "' has a loop pragma or attribute, which the "
                               "fused loop could not keep");
  FusionPlan Plan;
  auto First = analyzeLoop(**For, Ctx);
  if (!First)
    return First.takeError();
  Plan.First = *First;
  std::vector<const Stmt *> Between;
  auto Second = nextLoop(**For, S.Name, Between, Ctx);
  if (!Second)
    return Second.takeError();
  Plan.Second = *Second;
  if (llvm::Error E = checkSpace(Plan.First, Plan.Second, Ctx))
    return E;
  if (llvm::Error E = checkInductionVariables(Plan.First, Plan.Second, Ctx))
    return E;
  Parts P{StmtAccesses({Plan.First.For}, Ctx),
          StmtAccesses({Plan.Second.For}, Ctx),
          StmtAccesses({Plan.First.For->getBody()}, Ctx),
          StmtAccesses({Plan.Second.For->getBody()}, Ctx),
          StmtAccesses(Between, Ctx)};
  if (llvm::Error E = checkHazards(P.Body1, P.Body2, Ctx))
    return E;
  if (llvm::Error E = checkNames(Plan, P.Body2, Ctx))
    return E;
  const VarDecl *Shared =
      Plan.First.IV == Plan.Second.IV ? Plan.First.IV : nullptr;
  if (auto V = LoopDependence::firstSharedVariable(P.Whole1, P.Whole2, Shared))
    return refuseShared(*V, Ctx);
  if (llvm::Error E = checkSecondHeader(Plan.First, Plan.Second, Ctx))
    return E;
  P.Body2.renameInOffsets(*Plan.Second.IV, *Plan.First.IV);
  LoopDependence Dep(P.Body1, P.Body2, *Plan.First.IV, Plan.First.Step,
                     *S.Kernel, Ctx);
  if (llvm::Error E = checkBetween(Between, P.Between, P.Whole1, Dep, Ctx))
    return E;
  if (auto C = Dep.firstConflict())
    return refuseConflict(*C, Ctx);
  Plan.RestsOnSpec = Dep.restsOnSpec();
  return Plan;
}
