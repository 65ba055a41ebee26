//===- PadShared.cpp - pad 2-D __shared__ arrays against bank conflicts ---===//

#include "PadShared.h"
#include "optiml/Support/Error.h"

#include "clang/AST/TypeLoc.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

using MatchResult = ast_matchers::MatchFinder::MatchResult;

std::unique_ptr<Transform> optiml::createPadShared(TransformDescriptor D) {
  return std::make_unique<PadShared>(std::move(D));
}

llvm::Expected<Rewrite> PadShared::plan(const Site &S, const ParamValues &P,
                                        ASTContext &Ctx) const {
  int64_t Pad = P.has("pad") ? P.getInt("pad") : 1;
  auto Plan = PadSharedLegality::check(S, (unsigned)Pad, Ctx);
  if (!Plan)
    return Plan.takeError();
  return Rewrite([Plan = std::move(*Plan), &Ctx] { return emit(Plan, Ctx); });
}

/// The inner (column) dimension of the bound array, as written: `[C]` in
/// `T a[R][C]` (PadSharedLegality checked it is written).
static ConstantArrayTypeLoc columnsLoc(const MatchResult &R) {
  const auto *V = R.Nodes.getNodeAs<VarDecl>(EditSet::Root);
  return V->getTypeSourceInfo()
      ->getTypeLoc()
      .getAs<ConstantArrayTypeLoc>()
      .getElementLoc()
      .getAs<ConstantArrayTypeLoc>();
}

/// Right after the `[` of the column dimension.
static llvm::Expected<CharSourceRange> afterLBracket(const MatchResult &R) {
  SourceLocation L = columnsLoc(R).getLBracketLoc().getLocWithOffset(1);
  return CharSourceRange::getCharRange(L, L);
}

/// Right before the `]` of the column dimension.
static llvm::Expected<CharSourceRange> beforeRBracket(const MatchResult &R) {
  SourceLocation L = columnsLoc(R).getRBracketLoc();
  return CharSourceRange::getCharRange(L, L);
}

/// Whether the column size is one token (`32`, `TILE`, `BS`), so that
/// `+ pad` binds to all of it without parentheses.
static bool isOneToken(const VarDecl &V) {
  auto Loc = V.getTypeSourceInfo()
                 ->getTypeLoc()
                 .getAs<ConstantArrayTypeLoc>()
                 .getElementLoc()
                 .getAs<ConstantArrayTypeLoc>();
  const Expr *Size = Loc.getSizeExpr();
  if (!Size)
    return false;
  SourceRange R = Size->getSourceRange();
  return R.getBegin() == R.getEnd();
}

llvm::Expected<EditSet> PadShared::emit(const PadSharedPlan &Plan,
                                        ASTContext &Ctx) {
  EditSet Edits;
  std::string Plus = " + " + std::to_string(Plan.Pad);
  for (const VarDecl *V : Plan.Arrays) {
    if (isOneToken(*V)) {
      if (llvm::Error E = Edits.add(
              *V, changeTo(RangeSelector(beforeRBracket), cat(Plus)), Ctx))
        return E;
      continue;
    }
    if (llvm::Error E = Edits.add(
            *V, changeTo(RangeSelector(afterLBracket), cat("(")), Ctx))
      return E;
    if (llvm::Error E = Edits.add(
            *V, changeTo(RangeSelector(beforeRBracket), cat(")" + Plus)), Ctx))
      return E;
  }
  return Edits;
}
