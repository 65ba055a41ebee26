//===- Coarsen.cpp - F outputs per thread, jammed ------------------------===//

#include "Coarsen.h"
#include "JamPrinter.h"
#include "optiml/Rewrite/GridRescale.h"

#include "transforms/Coarsen/CoarsenLegality.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static TransformDescriptor describe() {
  TransformDescriptor D;
  D.Name = "coarsen";
  D.Summary = "give each thread F outputs along x or y, jammed statement by "
           "statement, dividing the grid";
  D.Kind = SiteKind::Kernel;
  ParamSpec Dim;
  Dim.Name = "dim";
  Dim.Domain = {"x", "y"};
  Dim.Default = "y";
  Dim.Help = "the dimension along which each thread takes F outputs";
  D.Params.push_back(std::move(Dim));
  D.Params.push_back(
      ParamSpec::integers("factor", {2, 4, 8}, 4, "outputs per thread (F)"));
  D.Addresses = {"memory-bound", "compute-bound", "latency-bound"};
  return D;
}

Coarsen::Coarsen() : Transform(describe()) {}

std::unique_ptr<Transform> optiml::createCoarsen() {
  return std::make_unique<Coarsen>();
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
