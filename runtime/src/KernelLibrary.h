//===- KernelLibrary.h - A candidate shared object and its ABI --*- C++ -*-===//
//
// Part of OptiML. The builder compiles every candidate to a shared object
// exporting the launcher ABI (docs/Runner.md):
//
//   extern "C" int optiml_launch(const unsigned grid[3], const unsigned
//                                block[3], unsigned shmem,
//                                cudaStream_t stream, void **args);
//   extern "C" const char *optiml_kernel_name(void);
//
// Both the runner and the libraries use the shared cudart, so they share one
// runtime, one context and one error state.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_KERNELLIBRARY_H
#define OPTIML_RUNTIME_KERNELLIBRARY_H

#include "Plan.h"
#include "Status.h"

#include <cuda_runtime.h>
#include <memory>
#include <string>

namespace optiml {

class KernelLibrary {
public:
  /// dlopen(RTLD_NOW | RTLD_LOCAL) plus symbol lookup; LoadError on failure.
  static Error open(const std::string &Path,
                    std::unique_ptr<KernelLibrary> &Out);

  const std::string &path() const { return Path; }
  /// What optiml_kernel_name() returned, e.g. "saxpy".
  const std::string &kernelName() const { return Name; }

  /// Enqueues one launch with \p I's geometry on \p S (the candidate's own
  /// geometry when the plan gives one and this is the candidate). A rejected
  /// launch is LaunchError (or Fault when the error is sticky). Does not
  /// synchronize.
  Error launch(const Instance &I, void **Args, cudaStream_t S) const;

  /// Marks the library loaded as the candidate (see launch()).
  void setCandidate() { IsCandidate = true; }

private:
  using LaunchFn = int (*)(const unsigned *, const unsigned *, unsigned,
                           cudaStream_t, void **);

  std::string Path;
  bool IsCandidate = false;
  std::string Name;
  LaunchFn Launch = nullptr;
};

/// Waits for the kernels enqueued on \p S. Any error here happened while a
/// kernel ran, so it is a Fault (the context is usually dead). The message is
/// "<What> failed: <cuda error>".
Error syncKernels(cudaStream_t S, const std::string &What);

/// True when the kernel name in a CUPTI record (usually mangled, e.g.
/// "_Z4vaddPKfS0_Pfi") denotes the function \p Name ("vadd").
bool kernelNameMatches(const std::string &RecordName, const std::string &Name);

} // namespace optiml

#endif // OPTIML_RUNTIME_KERNELLIBRARY_H
