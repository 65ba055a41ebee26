//===- KernelLaunches.h - one kernel's launches, as AST nodes -*- C++ -*-===//
//
// LaunchSiteFinder reports launches as text for listings; rewrites of the
// launch geometry and aliasing checks need the <<<...>>> calls themselves,
// and every other use of the kernel, which puts its launches out of reach.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_KERNELLAUNCHES_H
#define OPTIML_ANALYSIS_LEGALITY_KERNELLAUNCHES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace optiml {

/// A launch through the runtime API with the kernel's arguments in an
/// array of their addresses, as library code writes it:
///   void *args[] = {&out, &inp, &n};
///   cudaLaunchKernel((const void *)k, grid, block, args, 0, stream);
struct ArgumentArrayLaunch {
  const clang::CallExpr *Call = nullptr;
  /// The expression whose address is passed for each parameter, in order.
  std::vector<const clang::Expr *> Args;
};

class KernelLaunches {
public:
  /// The uses of \p Kernel in the translation unit (a template pattern
  /// stands for all its specializations), from a scan of it made once per
  /// context.
  KernelLaunches(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel);

  /// Every <<<...>>> call of the kernel, in source order.
  const std::vector<const clang::CUDAKernelCallExpr *> &calls() const {
    return Calls;
  }
  /// Whether a launch in this file shows the kernel's arguments; without
  /// one, checks of what they point to rest on the kernel spec.
  bool showsArguments() const {
    return !Calls.empty() || !ArrayLaunches.empty();
  }
  /// Launches through cudaLaunchKernel whose arguments can be read.
  const std::vector<ArgumentArrayLaunch> &argumentArrayLaunches() const {
    return ArrayLaunches;
  }
  /// The first use of the kernel other than as a <<<>>> callee (its address
  /// passed to cudaLaunchKernel, a function pointer), or null. Launches
  /// whose geometry a rewrite must follow hide behind it.
  const clang::Expr *addressUse() const { return AddressUse; }
  /// The first use of the kernel that is neither a <<<>>> callee nor an
  /// argument-array launch: one whose arguments are out of reach.
  const clang::Expr *opaqueUse() const { return OpaqueUse; }
  /// Success when no launch can hide from calls(); else an Illegal
  /// LegalityError at the use of \p Kernel's address.
  llvm::Error checkAllInReach(const clang::FunctionDecl &Kernel,
                              const clang::ASTContext &Ctx) const;

private:
  std::vector<const clang::CUDAKernelCallExpr *> Calls;
  std::vector<ArgumentArrayLaunch> ArrayLaunches;
  const clang::Expr *AddressUse = nullptr;
  const clang::Expr *OpaqueUse = nullptr;
};

/// The kernel \p Call launches: the template pattern for a specialization;
/// null for a dependent call.
const clang::FunctionDecl *
launchedKernel(const clang::CUDAKernelCallExpr &Call);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_KERNELLAUNCHES_H
