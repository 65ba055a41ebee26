//===- PadShared.cpp - pad 2-D __shared__ arrays against bank conflicts ---===//
//
//   __shared__ float tile[TILE][TILE];  ->  __shared__ float tile[TILE][TILE +
//   1];
//
// for every statically sized 2-D `__shared__` array of the kernel whose
// column accesses (`tile[threadIdx.x][k]`) put a warp's lanes in the same
// bank: each row then starts `pad` words further along the banks, so a
// column's elements fall in different banks. Only the declaration
// changes; every access stays `tile[i][j]`. PadSharedLegality decides
// which arrays may and should be padded.
//
//===----------------------------------------------------------------------===//

#include "optiml/Support/Error.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/PadShared/PadSharedLegality.h"
#include "transforms/TransformFactories.h"

#include "clang/AST/TypeLoc.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

/// The edits for a plan PadSharedLegality accepted.
static llvm::Expected<EditSet> emit(const PadSharedPlan &Plan, ASTContext &Ctx);

using MatchResult = ast_matchers::MatchFinder::MatchResult;

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  int64_t Pad = P.has("pad") ? P.getInt("pad") : 1;
  return Rewrite::of(PadSharedLegality::check(S, (unsigned)Pad, Ctx),
                     [&Ctx](const auto &Plan) { return emit(Plan, Ctx); });
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

static llvm::Expected<EditSet> emit(const PadSharedPlan &Plan,
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

std::unique_ptr<Transform> optiml::createPadShared(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
