//===- LauncherGenerator.h - the C-ABI entry of a candidate ---*- C++ -*-===//
//
// The runner loads each candidate as a shared object and finds its kernel
// through two extern "C" functions (docs/Runner.md):
//
//   const void *optiml_kernel_entry(void);  // the kernel's address
//   const char *optiml_kernel_name(void);
//   const void *optiml_kernel_symbol(const char *name);  // &table, or null
//
// The translation unit is the candidate's source followed by those two
// functions and nothing else: the launch (cudaLaunchKernel with the runner's
// own argument array), the timing and the checks are the runner's code, in a
// translation unit the candidate cannot reach, so a macro or function the
// candidate defines cannot change how it is launched or measured. The user's
// `main` is renamed out of the way, so a complete program can be evaluated
// as it is.
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
