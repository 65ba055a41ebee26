//===- Coarsen.cpp - F outputs per thread, jammed ------------------------===//

#include "Coarsen.h"
#include "JamPrinter.h"
#include "transforms/Common/GridRescale.h"

#include "optiml/Analysis/Legality/CoarsenLegality.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

Coarsen::Coarsen() {
  ParamSpec Dim;
  Dim.Name = "dim";
  Dim.Domain = {"x", "y"};
  Dim.Default = "y";
  Dim.Help = "the dimension along which each thread takes F outputs";
  Params.push_back(std::move(Dim));
  Params.push_back(
      ParamSpec::integers("factor", {2, 4, 8}, 4, "outputs per thread (F)"));
}

static unsigned dimOf(const ParamValues &P) { return P.get("dim") == "y"; }

ParamValues Coarsen::defaults(const Site &S, ASTContext &Ctx) const {
  ParamValues V = Transform::defaults(S, Ctx);
  V.set("dim", CoarsenLegality::readsBlockIdx(*S.Kernel, 1) ? "y" : "x");
  return V;
}

llvm::Error Coarsen::check(const Site &S, const ParamValues &P,
                           ASTContext &Ctx) const {
  auto Plan = CoarsenLegality::analyze(*S.Kernel, dimOf(P),
                                       unsigned(P.getInt("factor")), Ctx);
  return Plan ? llvm::Error::success() : Plan.takeError();
}

llvm::Expected<EditSet> Coarsen::apply(const Site &S, const ParamValues &P,
                                       ASTContext &Ctx) const {
  auto Plan = CoarsenLegality::analyze(*S.Kernel, dimOf(P),
                                       unsigned(P.getInt("factor")), Ctx);
  if (!Plan)
    return Plan.takeError();
  const auto *Body = cast<CompoundStmt>(S.Kernel->getBody());
  auto Text = JamPrinter(*Plan, Ctx).print(*Body);
  if (!Text)
    return Text.takeError();
  return rewriteBodyAndGrids(*S.Kernel, std::move(*Text), Plan->Launches,
                             Plan->Dim, Plan->Factor, Ctx);
}
