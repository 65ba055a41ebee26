//===- Vectorize.cpp - W consecutive elements per thread -----------------===//
//
// Turns an elementwise kernel's scalar loads and stores into float4 /
// double2 / int4 ones: each thread handles W consecutive elements, with a
// vector path when they are all in range and every buffer is aligned, and
// the original code per lane otherwise. The grid is divided by W at every
// launch and in the kernel's mark. VectorizeLegality decides;
// VectorPrinter writes the body.
//
//===----------------------------------------------------------------------===//

#include "VectorPrinter.h"
#include "optiml/Rewrite/GridRescale.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/TransformFactories.h"

#include "transforms/Vectorize/VectorizeLegality.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet> emit(const FunctionDecl &K,
                                    const VectorizePlan &Plan, ASTContext &Ctx);

/// Width 2 when a buffer holds doubles (there is no double4), else 4.
static ParamValues defaults(const TransformDescriptor &, ParamValues V,
                            const Site &S, ASTContext &Ctx) {
  for (const ParmVarDecl *P : S.Kernel->parameters())
    if (P->getType()->isPointerType() &&
        P->getType()->getPointeeType()->isSpecificBuiltinType(
            BuiltinType::Double))
      V.set("width", "2");
  return V;
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  return Rewrite::of(
      VectorizeLegality::analyze(*S.Kernel, unsigned(P.getInt("width")), Ctx),
      [&K = *S.Kernel, &Ctx](const auto &Plan) { return emit(K, Plan, Ctx); });
}

static llvm::Expected<EditSet>
emit(const FunctionDecl &K, const VectorizePlan &Plan, ASTContext &Ctx) {
  const auto *Body = cast<CompoundStmt>(K.getBody());
  auto Text = VectorPrinter(Plan, Ctx).print(*Body);
  if (!Text)
    return Text.takeError();
  return rewriteBodyAndGrids(K, std::move(*Text), Plan.Launches, 0,
                             Plan.DivideGrid ? Plan.Width : 1, Ctx);
}

std::unique_ptr<Transform> optiml::createVectorize(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan, defaults);
}
