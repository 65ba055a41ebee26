//===- Coarsen.cpp - F outputs per thread, jammed ------------------------===//

#include "Coarsen.h"
#include "JamPrinter.h"
#include "optiml/Rewrite/GridRescale.h"

#include "transforms/Coarsen/CoarsenLegality.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

std::unique_ptr<Transform> optiml::createCoarsen(TransformDescriptor D) {
  return std::make_unique<Coarsen>(std::move(D));
}

static unsigned dimOf(const ParamValues &P) { return P.get("dim") == "y"; }

ParamValues Coarsen::defaults(const Site &S, ASTContext &Ctx) const {
  ParamValues V = Transform::defaults(S, Ctx);
  V.set("dim", CoarsenLegality::readsBlockIdx(*S.Kernel, 1) ? "y" : "x");
  return V;
}

llvm::Expected<Rewrite> Coarsen::plan(const Site &S, const ParamValues &P,
                                      ASTContext &Ctx) const {
  auto Plan = CoarsenLegality::analyze(*S.Kernel, dimOf(P),
                                       unsigned(P.getInt("factor")), Ctx);
  if (!Plan)
    return Plan.takeError();
  return Rewrite([&K = *S.Kernel, Plan = std::move(*Plan), &Ctx] {
    return emit(K, Plan, Ctx);
  });
}

llvm::Expected<EditSet> Coarsen::emit(const FunctionDecl &K,
                                      const CoarsenPlan &Plan,
                                      ASTContext &Ctx) {
  const auto *Body = cast<CompoundStmt>(K.getBody());
  auto Text = JamPrinter(Plan, Ctx).print(*Body);
  if (!Text)
    return Text.takeError();
  return rewriteBodyAndGrids(K, std::move(*Text), Plan.Launches, Plan.Dim,
                             Plan.Factor, Ctx);
}
