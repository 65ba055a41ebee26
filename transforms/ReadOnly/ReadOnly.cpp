//===- ReadOnly.cpp - loads of a read-only buffer through __ldg -----------===//
//
// Routes every load of a buffer the kernel never writes through the
// read-only data path:
//
//   y[i] = a * x[i] + y[i];   ->   y[i] = a * __ldg(&x[i]) + y[i];
//
// `__ldg` loads through the non-coherent texture/L1 path, which the
// compiler uses on its own only when it can prove `x` is never written
// while the kernel runs (`const __restrict__`); writing the call states it
// for this buffer alone. ReadOnlyLegality decides where it may run.
//
//===----------------------------------------------------------------------===//

#include "optiml/Transform/FunctionTransform.h"
#include "transforms/ReadOnly/ReadOnlyLegality.h"
#include "transforms/TransformFactories.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

/// The edits for a plan ReadOnlyLegality accepted.
static llvm::Expected<EditSet> emit(const Site &S, const ReadOnlyPlan &Plan,
                                    ASTContext &Ctx);

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                                    ASTContext &Ctx) {
  return Rewrite::of(
      ReadOnlyLegality::check(S, Ctx),
      [S, &Ctx](const auto &Plan) { return emit(S, Plan, Ctx); });
}

/// `x[i]` -> `__ldg(&x[i])`: two insertions, so that a load inside
/// another's index (`x[x[i]]`) is wrapped too without overlapping edits.
static llvm::Expected<EditSet> emit(const Site &S, const ReadOnlyPlan &Plan,
                                    ASTContext &Ctx) {
  EditSet Edits;
  for (const Expr *Load : Plan.Loads) {
    if (llvm::Error E = Edits.add(
            *Load, insertBefore(node(EditSet::Root.str()), cat("__ldg(&")),
            Ctx))
      return E;
    if (llvm::Error E = Edits.add(
            *Load, insertAfter(node(EditSet::Root.str()), cat(")")), Ctx))
      return E;
  }
  if (Plan.RestsOnSpec)
    Edits.addNote("'" + S.Kernel->getNameAsString() +
                  "' is not launched in this file: the read-only path "
                  "relies on the kernel spec's buffers being distinct");
  return Edits;
}

std::unique_ptr<Transform> optiml::createReadOnly(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
