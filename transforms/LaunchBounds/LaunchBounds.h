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
  LaunchBounds();

  llvm::StringRef name() const override { return "launch-bounds"; }
  llvm::StringRef summary() const override {
    return "add __launch_bounds__(max-threads) to a kernel";
  }
  SiteKind siteKind() const override { return SiteKind::Kernel; }
  llvm::ArrayRef<ParamSpec> params() const override { return Params; }

  /// The tightest bound in the domain that every launch fits.
  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;
  llvm::Error check(const Site &S, const ParamValues &P,
                    clang::ASTContext &Ctx) const override;
  llvm::Expected<EditSet> apply(const Site &S, const ParamValues &P,
                                clang::ASTContext &Ctx) const override;

private:
  std::vector<ParamSpec> Params;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_LAUNCHBOUNDS_LAUNCHBOUNDS_H
