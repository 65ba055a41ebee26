//===- ScalarReplace.h - keep a buffer element in a register ----*- C++ -*-===//
//
// `for (k...) C[i * n + j] += A[...] * B[...];` becomes
//
//   float optiml_sr0 = C[i * n + j];
//   for (k...) optiml_sr0 += A[...] * B[...];
//   C[i * n + j] = optiml_sr0;
//
// for every element the loop writes at one index it keeps
// (ScalarReplaceLegality): one load and one store instead of a load and a
// store per iteration, and the loop no longer writes memory, which frees
// the compiler to keep its other loads in registers and lets shared-memory
// staging read the other buffers.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_SCALARREPLACE_SCALARREPLACE_H
#define OPTIML_TRANSFORMS_SCALARREPLACE_SCALARREPLACE_H

#include "transforms/ScalarReplace/ScalarReplaceLegality.h"
#include "optiml/Transform/Transform.h"

namespace optiml {

class ScalarReplace : public Transform {
public:
  using Transform::Transform;

  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  static llvm::Expected<EditSet> emit(const Site &S,
                                      const ScalarReplacePlan &Plan,
                                      clang::ASTContext &Ctx);
};

/// The factory Transforms.def registers; \p D is ScalarReplace.json.
std::unique_ptr<Transform> createScalarReplace(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_SCALARREPLACE_SCALARREPLACE_H
