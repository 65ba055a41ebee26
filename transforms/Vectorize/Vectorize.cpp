//===- Vectorize.cpp - W consecutive elements per thread -----------------===//

#include "Vectorize.h"
#include "VectorPrinter.h"
#include "transforms/Common/GridRescale.h"

#include "optiml/Analysis/Legality/VectorizeLegality.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

Vectorize::Vectorize() {
  Params.push_back(ParamSpec::integers(
      "width", {2, 4}, 4, "consecutive elements per thread (vector lanes)"));
}

ParamValues Vectorize::defaults(const Site &S, ASTContext &Ctx) const {
  ParamValues V = Transform::defaults(S, Ctx);
  for (const ParmVarDecl *P : S.Kernel->parameters())
    if (P->getType()->isPointerType() &&
        P->getType()->getPointeeType()->isSpecificBuiltinType(
            BuiltinType::Double))
      V.set("width", "2");
  return V;
}

llvm::Error Vectorize::check(const Site &S, const ParamValues &P,
                             ASTContext &Ctx) const {
  auto Plan =
      VectorizeLegality::analyze(*S.Kernel, unsigned(P.getInt("width")), Ctx);
  return Plan ? llvm::Error::success() : Plan.takeError();
}

llvm::Expected<EditSet> Vectorize::apply(const Site &S, const ParamValues &P,
                                         ASTContext &Ctx) const {
  auto Plan =
      VectorizeLegality::analyze(*S.Kernel, unsigned(P.getInt("width")), Ctx);
  if (!Plan)
    return Plan.takeError();
  const auto *Body = cast<CompoundStmt>(S.Kernel->getBody());
  auto Text = VectorPrinter(*Plan, Ctx).print(*Body);
  if (!Text)
    return Text.takeError();
  return rewriteBodyAndGrids(*S.Kernel, std::move(*Text), Plan->Launches, 0,
                             Plan->Width, Ctx);
}
