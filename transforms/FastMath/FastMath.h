//===- FastMath.h - CUDA's fast intrinsics in one kernel --------*- C++ -*-===//
//
// Replaces single-precision library calls and float divisions in a
// kernel's body by CUDA's fast intrinsics (expf -> __expf, a / b ->
// __fdividef(a, b), 1.0f / sqrtf(x) -> rsqrtf(x)), like nvcc's
// -use_fast_math but for one kernel and chosen groups of operations. The
// results change in the last bits, so the transform says so
// (changesNumerics) and each result notes that verification rests on the
// spec's tolerance. What qualifies is FastMathLegality's to decide.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_FASTMATH_FASTMATH_H
#define OPTIML_TRANSFORMS_FASTMATH_FASTMATH_H

#include "transforms/FastMath/FastMathLegality.h"
#include "optiml/Transform/Transform.h"

namespace optiml {

class FastMath : public Transform {
public:
  using Transform::Transform;

  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  static llvm::Expected<EditSet>
  emit(const std::vector<FastMathCandidate> &Found, clang::ASTContext &Ctx);
  static llvm::Expected<std::vector<FastMathCandidate>>
  candidates(const Site &S, const ParamValues &P, clang::ASTContext &Ctx);
  static llvm::Error rewrite(const FastMathCandidate &C, EditSet &Edits,
                             clang::ASTContext &Ctx);
  static llvm::Error rewriteDivision(const clang::BinaryOperator &Div,
                                     EditSet &Edits, clang::ASTContext &Ctx);
  static llvm::Error rewriteReciprocalSqrt(const FastMathCandidate &C,
                                           EditSet &Edits,
                                           clang::ASTContext &Ctx);

};

/// The factory Transforms.def registers; \p D is FastMath.json.
std::unique_ptr<Transform> createFastMath(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_FASTMATH_FASTMATH_H
