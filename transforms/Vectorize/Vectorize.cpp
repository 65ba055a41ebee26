//===- Vectorize.cpp - W consecutive elements per thread -----------------===//

#include "Vectorize.h"
#include "VectorPrinter.h"
#include "optiml/Rewrite/GridRescale.h"

#include "transforms/Vectorize/VectorizeLegality.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

std::unique_ptr<Transform> optiml::createVectorize(TransformDescriptor D) {
  return std::make_unique<Vectorize>(std::move(D));
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

llvm::Expected<Rewrite> Vectorize::plan(const Site &S, const ParamValues &P,
                                        ASTContext &Ctx) const {
  auto Plan =
      VectorizeLegality::analyze(*S.Kernel, unsigned(P.getInt("width")), Ctx);
  if (!Plan)
    return Plan.takeError();
  return Rewrite([&K = *S.Kernel, Plan = std::move(*Plan), &Ctx] {
    return emit(K, Plan, Ctx);
  });
}

llvm::Expected<EditSet> Vectorize::emit(const FunctionDecl &K,
                                        const VectorizePlan &Plan,
                                        ASTContext &Ctx) {
  const auto *Body = cast<CompoundStmt>(K.getBody());
  auto Text = VectorPrinter(Plan, Ctx).print(*Body);
  if (!Text)
    return Text.takeError();
  return rewriteBodyAndGrids(K, std::move(*Text), Plan.Launches, 0, Plan.Width,
                             Ctx);
}
