//===- LaunchBoundsLegality.h - may a kernel get bounds? --------*- C++ -*-===//
//
// `__launch_bounds__(N, M)` lets the compiler budget registers for M blocks
// of N threads on each SM; a launch with more threads per block then fails
// at run time. So every launch of the kernel must be in this file with a
// constant block of at most N threads, unless N is the most any block can
// have (1024), which holds for every launch, seen or not.
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

  /// Success when \p Kernel has no bound yet, \p MinBlocks blocks of
  /// \p MaxThreads fit on an SM, and no launch exceeds \p MaxThreads.
  static llvm::Error check(const clang::FunctionDecl &Kernel,
                           uint64_t MaxThreads, uint64_t MinBlocks,
                           clang::ASTContext &Ctx);

  /// The most threads a block can have on any GPU CUDA supports.
  static constexpr uint64_t DeviceMaxThreads = 1024;
  /// The fewest threads an SM holds at once on the GPUs we target (sm_70 to
  /// sm_90 hold 1536 or 2048): more blocks than fit are a request the
  /// compiler cannot meet.
  static constexpr uint64_t SmThreads = 2048;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_LAUNCHBOUNDS_LAUNCHBOUNDSLEGALITY_H
