//===- LauncherGenerator.h - the C-ABI entry of a candidate ---*- C++ -*-===//
//
// The runner loads each candidate as a shared object and launches its kernel
// through two extern "C" functions (docs/Runner.md):
//
//   int optiml_launch(const unsigned grid[3], const unsigned block[3],
//                     unsigned shmem, cudaStream_t stream, void **args);
//   const char *optiml_kernel_name(void);
//
// The launcher translation unit is the candidate's source followed by those
// two functions. The user's `main` is renamed out of the way, so a complete
// program can be evaluated as it is; the launch goes through
// cudaLaunchKernel, whose `void **args` is the runner's argument array, so
// no parameter type has to be spelled again.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_LAUNCHERGENERATOR_H
#define OPTIML_EVAL_LAUNCHERGENERATOR_H

#include "optiml/IR/KernelInfo.h"
#include "optiml/IR/KernelSource.h"

#include "llvm/Support/Error.h"

namespace optiml {

/// The launcher TU for \p Kernel of \p Source. Template kernels are an
/// Illegal error until specs can name their template arguments.
llvm::Expected<std::string> generateLauncher(const KernelSource &Source,
                                             const KernelInfo &Kernel);

} // namespace optiml

#endif // OPTIML_EVAL_LAUNCHERGENERATOR_H
