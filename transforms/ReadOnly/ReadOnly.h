//===- ReadOnly.h - loads of a read-only buffer through __ldg ---*- C++ -*-===//
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

#ifndef OPTIML_TRANSFORMS_READONLY_READONLY_H
#define OPTIML_TRANSFORMS_READONLY_READONLY_H

#include "optiml/Transform/Transform.h"
#include "transforms/ReadOnly/ReadOnlyLegality.h"

namespace optiml {

class ReadOnly : public Transform {
public:
  using Transform::Transform;

  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  /// The edits for a plan ReadOnlyLegality accepted.
  static llvm::Expected<EditSet> emit(const Site &S, const ReadOnlyPlan &Plan,
                                      clang::ASTContext &Ctx);
};

/// The factory Transforms.def registers; \p D is ReadOnly.json.
std::unique_ptr<Transform> createReadOnly(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_READONLY_READONLY_H
