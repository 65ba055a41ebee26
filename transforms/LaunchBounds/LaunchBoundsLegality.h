//===- LaunchBoundsLegality.h - may a kernel get bounds? --------*- C++ -*-===//
//
// `__launch_bounds__(N)` lets the compiler budget registers for N threads;
// a launch with more threads per block then fails at run time. So every
// launch of the kernel must be in this file with a constant block of at
// most N threads.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_LAUNCHBOUNDS_LAUNCHBOUNDSLEGALITY_H
#define OPTIML_TRANSFORMS_LAUNCHBOUNDS_LAUNCHBOUNDSLEGALITY_H

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

namespace optiml {

class LaunchBoundsLegality {
public:
  /// The most threads per block any launch of \p Kernel uses; an Illegal
  /// error when a launch is out of reach or its block is not a constant.
  static llvm::Expected<uint64_t>
  largestBlock(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

  /// Success when \p Kernel has no bound yet and no launch exceeds
  /// \p MaxThreads.
  static llvm::Error check(const clang::FunctionDecl &Kernel,
                           uint64_t MaxThreads, clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_LAUNCHBOUNDS_LAUNCHBOUNDSLEGALITY_H
