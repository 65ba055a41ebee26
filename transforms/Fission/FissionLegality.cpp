//===- FissionLegality.cpp - may a loop be split in two? -----------------===//

#include "transforms/Fission/FissionLegality.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/LoopDependence.h"
#include "optiml/Analysis/Legality/StmtAccesses.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"
#include "optiml/Rewrite/StmtSurround.h"

#include "clang/AST/Attr.h"

using namespace optiml;
using namespace clang;

llvm::Expected<FissionPlan> FissionLegality::checkLoop(const Site &S,
                                                       ASTContext &Ctx) {
  auto For = rewritableFor(*S.Loop, S.Name, "fission splits for-loops",
                           "its header cannot be copied", Ctx);
  if (!For)
    return For.takeError();
  if (const auto *A =
          parentOf(DynTypedNode::create(**For), Ctx).get<AttributedStmt>())
    return notApplicableAt(A->getAttrs().front()->getLocation(), Ctx,
                           "'" + S.Name +
                               "' has a loop pragma or attribute, which the "
                               "two loops could not share");
  auto L = analyzeLoop(**For, Ctx);
  if (!L)
    return L.takeError();
  // The second loop evaluates the initial value again, after the first.
  if (auto Why = whyLoopVariant(*L->Lower, **For, Ctx))
    return illegalAt(Why->Where->getBeginLoc(), Ctx,
                     "the initial value " + Why->Reason +
                         "; the second loop would start from another value");
  const auto *Body = dyn_cast<CompoundStmt>((*For)->getBody());
  if (!Body || Body->size() < 2)
    return notApplicableAt((*For)->getBody()->getBeginLoc(), Ctx,
                           "the body is a single statement; fission splits "
                           "a block of statements");
  FissionPlan Plan;
  Plan.Loop = *L;
  Plan.Body = Body;
  return Plan;
}

/// "'text'" of \p E, for messages.
static std::string quoted(const Stmt &E, const ASTContext &Ctx) {
  return "'" + textOf(E.getSourceRange(), Ctx) + "'";
}

static llvm::Error refuseConflict(const DependenceConflict &C,
                                  const ASTContext &Ctx) {
  std::string Later = quoted(*C.Later->Where, Ctx) + " (second part)";
  std::string Earlier = quoted(*C.Earlier->Where, Ctx) + " (first part)";
  SourceLocation Loc = C.Later->Where->getBeginLoc();
  switch (C.K) {
  case DependenceConflict::Reversed:
    return illegalAt(Loc, Ctx,
                     Later + " reaches the element that " + Earlier +
                         " reaches " + llvm::Twine(C.Distance) +
                         (C.Distance == 1 ? " iteration" : " iterations") +
                         " later; fission would run the two in the opposite "
                         "order");
  case DependenceConflict::EveryIteration:
    return illegalAt(Loc, Ctx,
                     Later + " and " + Earlier +
                         " reach the same element on every iteration; "
                         "fission would reorder them");
  case DependenceConflict::Unproven:
    break;
  }
  return illegalAt(Loc, Ctx,
                   "OptiML cannot prove that " + Later + " and " + Earlier +
                       " keep their order after fission: " + C.Why);
}

static llvm::Error refuseVariable(const VariableConflict &V,
                                  const ASTContext &Ctx) {
  std::string Name = "'" + V.Var->getName().str() + "'";
  if (V.WrittenByEarlier)
    return illegalAt(V.Use->getBeginLoc(), Ctx,
                     Name + " is written in the first part and used in the "
                            "second; the second loop would see only its value "
                            "after the last iteration");
  return illegalAt(V.Write->getBeginLoc(), Ctx,
                   Name + " is written in the second part and used in the "
                          "first; the first loop would no longer see those "
                          "writes");
}

llvm::Error FissionLegality::checkParts(FissionPlan &Plan, const Site &S,
                                        ASTContext &Ctx) {
  llvm::ArrayRef<const Stmt *> All(Plan.Body->body_begin(),
                                   Plan.Body->body_end());
  StmtAccesses First(All.take_front(Plan.Split), Ctx);
  StmtAccesses Second(All.drop_front(Plan.Split), Ctx);
  for (const StmtAccesses *Part : {&First, &Second})
    if (const auto &H = Part->hazard())
      return illegalAt(H->Where->getBeginLoc(), Ctx,
                       "the loop body has " + H->What +
                           "; fission cannot split the loop around it");
  for (const VarDecl *V : Second.used())
    if (First.declares(*V))
      return illegalAt(Second.firstUse(*V)->getBeginLoc(), Ctx,
                       "'" + V->getName() +
                           "' is declared in the first part and used in the "
                           "second; the second loop could not see it");
  if (auto V = LoopDependence::firstSharedVariable(First, Second, Plan.Loop.IV))
    return refuseVariable(*V, Ctx);
  LoopDependence Dep(First, Second, *Plan.Loop.IV, Plan.Loop.Step, *S.Kernel,
                     Ctx);
  if (auto C = Dep.firstConflict())
    return refuseConflict(*C, Ctx);
  Plan.RestsOnSpec = Dep.restsOnSpec();
  return llvm::Error::success();
}

llvm::Expected<FissionPlan>
FissionLegality::check(const Site &S, unsigned Split, ASTContext &Ctx) {
  auto Plan = checkLoop(S, Ctx);
  if (!Plan)
    return Plan.takeError();
  unsigned N = Plan->Body->size();
  if (Split == 0 || Split >= N)
    return notApplicableAt(Plan->Loop.For->getBeginLoc(), Ctx,
                           "split=" + llvm::Twine(Split) +
                               " leaves a loop without statements: the body "
                               "has " +
                               llvm::Twine(N) + " statements");
  Plan->Split = Split;
  if (llvm::Error E = checkParts(*Plan, S, Ctx))
    return E;
  Plan->NeedsBraces = !isInBlock(*Plan->Loop.For, Ctx);
  return Plan;
}

std::optional<unsigned>
FissionLegality::firstLegalSplit(const Site &S, unsigned Max, ASTContext &Ctx) {
  auto Plan = checkLoop(S, Ctx);
  if (!Plan) {
    llvm::consumeError(Plan.takeError());
    return std::nullopt;
  }
  unsigned Last = std::min<unsigned>(Max, Plan->Body->size() - 1);
  for (unsigned Split = 1; Split <= Last; ++Split) {
    auto P = check(S, Split, Ctx);
    if (P)
      return Split;
    llvm::consumeError(P.takeError());
  }
  return std::nullopt;
}
