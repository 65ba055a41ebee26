//===- LaunchBounds.h - `__launch_bounds__(N)` on a kernel ----*- C++ -*-===//
//
// Tells the compiler the kernel never runs with more than N threads per
// block, so it can spend more registers per thread. Legal only when every
// launch is visible with a constant block of at most N threads
// (LaunchBoundsLegality).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_LAUNCHBOUNDS_LAUNCHBOUNDS_H
#define OPTIML_TRANSFORMS_LAUNCHBOUNDS_LAUNCHBOUNDS_H

#include "optiml/Transform/Transform.h"

namespace optiml {

class LaunchBounds : public Transform {
public:
  using Transform::Transform;

  /// The tightest bound in the domain that every launch fits.
  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;
  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  static llvm::Expected<EditSet> emit(const clang::FunctionDecl &K,
                                      const std::string &Attr,
                                      clang::ASTContext &Ctx);
};

/// The factory Transforms.def registers; \p D is LaunchBounds.json.
std::unique_ptr<Transform> createLaunchBounds(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_LAUNCHBOUNDS_LAUNCHBOUNDS_H
