//===- Vectorize.h - W consecutive elements per thread ---------*- C++ -*-===//
//
// Turns an elementwise kernel's scalar loads and stores into float4 /
// double2 / int4 ones: each thread handles W consecutive elements, with a
// vector path when they are all in range and every buffer is aligned, and
// the original code per lane otherwise. The grid is divided by W at every
// launch and in the kernel's mark. VectorizeLegality decides;
// VectorPrinter writes the body.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_VECTORIZE_VECTORIZE_H
#define OPTIML_TRANSFORMS_VECTORIZE_VECTORIZE_H

#include "transforms/Vectorize/VectorizeLegality.h"
#include "optiml/Transform/Transform.h"

namespace optiml {

class Vectorize : public Transform {
public:
  using Transform::Transform;

  /// Width 2 when a buffer holds doubles (there is no double4), else 4.
  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;
  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  static llvm::Expected<EditSet> emit(const clang::FunctionDecl &K,
                                      const VectorizePlan &Plan,
                                      clang::ASTContext &Ctx);
};

/// The factory Transforms.def registers; \p D is Vectorize.json.
std::unique_ptr<Transform> createVectorize(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_VECTORIZE_VECTORIZE_H
