//===- Hoist.h - compute loop-invariant index arithmetic once ---*- C++ -*-===//
//
// `for (...) acc += A[row * k + i] * ...;` becomes
//
//   const int optiml_inv0 = row * k;
//   for (...) acc += A[optiml_inv0 + i] * ...;
//
// for every maximal invariant, non-trivial integer or pointer expression
// the loop evaluates on every iteration (HoistLegality). nvcc often does
// this itself; written out, it survives transforms that make the loop
// harder for the compiler to see through (tiling, coarsening), and later
// source-level steps see one name instead of repeated arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_HOIST_HOIST_H
#define OPTIML_TRANSFORMS_HOIST_HOIST_H

#include "transforms/Hoist/HoistLegality.h"
#include "optiml/Transform/Transform.h"

namespace optiml {

class Hoist : public Transform {
public:
  using Transform::Transform;

  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  static llvm::Expected<EditSet>
  emit(const Site &S, const std::vector<HoistCandidate> &Candidates,
       clang::ASTContext &Ctx);
  /// `const int optiml_inv0 = row * k;`, one per candidate.
  static std::vector<std::string>
  declarations(llvm::ArrayRef<HoistCandidate> Candidates,
               llvm::ArrayRef<std::string> Names, clang::ASTContext &Ctx);
};

/// The factory Transforms.def registers; \p D is Hoist.json.
std::unique_ptr<Transform> createHoist(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_HOIST_HOIST_H
