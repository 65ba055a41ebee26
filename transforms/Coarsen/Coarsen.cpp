//===- Coarsen.cpp - F outputs per thread, jammed ------------------------===//
//
// Thread coarsening with unroll-and-jam (register blocking): each thread
// computes F outputs along x or y, the F copies interleaved statement by
// statement, so that loads the copies share are made once and kept in
// registers, and the grid is divided by F at every launch and in the
// kernel's mark. CoarsenLegality decides; JamPrinter writes the body.
//
//===----------------------------------------------------------------------===//

#include "JamPrinter.h"
#include "optiml/Rewrite/GridRescale.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/TransformFactories.h"

#include "transforms/Coarsen/CoarsenLegality.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet> emit(const FunctionDecl &K,
                                    const CoarsenPlan &Plan, ASTContext &Ctx);

static unsigned dimOf(const ParamValues &P) { return P.get("dim") == "y"; }

/// Along y when the kernel indexes y (rows share the loads of a column),
/// else along x.
static ParamValues defaults(const TransformDescriptor &, ParamValues V,
                            const Site &S, ASTContext &Ctx) {
  V.set("dim", CoarsenLegality::readsBlockIdx(*S.Kernel, 1) ? "y" : "x");
  return V;
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  return Rewrite::of(
      CoarsenLegality::analyze(*S.Kernel, dimOf(P),
                               unsigned(P.getInt("factor")), Ctx),
      [&K = *S.Kernel, &Ctx](const auto &Plan) { return emit(K, Plan, Ctx); });
}

static llvm::Expected<EditSet> emit(const FunctionDecl &K,
                                    const CoarsenPlan &Plan, ASTContext &Ctx) {
  const auto *Body = cast<CompoundStmt>(K.getBody());
  auto Text = JamPrinter(Plan, Ctx).print(*Body);
  if (!Text)
    return Text.takeError();
  return rewriteBodyAndGrids(K, std::move(*Text), Plan.Launches, Plan.Dim,
                             Plan.Factor, Ctx);
}

std::unique_ptr<Transform> optiml::createCoarsen(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan, defaults);
}
