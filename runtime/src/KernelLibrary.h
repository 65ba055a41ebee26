//===- KernelLibrary.h - A candidate shared object and its ABI --*- C++ -*-===//
//
// Part of OptiML. The builder compiles every candidate to a shared object
// exporting two C functions (docs/Runner.md):
//
//   extern "C" const void *optiml_kernel_entry(void); // &kernel<args...>
//   extern "C" const char *optiml_kernel_name(void);
//   extern "C" const void *optiml_kernel_symbol(const char *); // &table
//   extern "C" const void *optiml_kernel_companion(unsigned); // &other
//
// The runner launches the entry itself (cudaLaunchKernel, in this process's
// code), so nothing a candidate's file defines can change how it is
// launched, timed or checked. Both the runner and the libraries use the
// shared cudart, so they share one runtime, one context and one error state.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_KERNELLIBRARY_H
#define OPTIML_RUNTIME_KERNELLIBRARY_H

#include "Buffers.h"
#include "Plan.h"
#include "Status.h"

#include "optiml/Protocol/KernelAttributes.h"

#include <cuda_runtime.h>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace optiml {

class KernelLibrary {
public:
  /// dlopen(RTLD_NOW | RTLD_LOCAL) plus symbol lookup; LoadError on failure,
  /// also when the entry is not a registered kernel of that name.
  static Error open(const std::string &Path,
                    std::unique_ptr<KernelLibrary> &Out);

  const std::string &path() const { return Path; }
  /// What optiml_kernel_name() returned, e.g. "saxpy".
  const std::string &kernelName() const { return Name; }

  /// Enqueues one run of \p I on \p S: one launch with \p I's geometry
  /// (the candidate's own geometry when the plan gives one and this is the
  /// candidate), or every launch of its sequence, in order. A rejected
  /// launch is LaunchError (or Fault when the error is sticky). Does not
  /// synchronize. The symbols of \p Bufs are copied into the library's
  /// variables of those names first, on \p S.
  Error launch(const Instance &I, BufferSet &Bufs, cudaStream_t S) const;

  /// Enqueues \p Steps of a sequence of \p Bufs' instance on \p S, the
  /// symbols uploaded first: part of a run (the one launch counters are
  /// read from).
  Error launchSteps(const std::vector<protocol::Step> &Steps, BufferSet &Bufs,
                    cudaStream_t S) const;

  /// What the driver says of the kernel as loaded on the current device
  /// (cudaFuncGetAttributes); std::nullopt when it would not say.
  std::optional<protocol::KernelAttributes> attributes() const;

  /// Marks the library loaded as the candidate (see launch()).
  void setCandidate() { IsCandidate = true; }
  Side side() const { return IsCandidate ? Side::Candidate : Side::Reference; }

private:
  Error checkEntry() const;
  /// One launch of \p Fn (named \p FnName in errors) with \p Args.
  Error launchOne(const void *Fn, const std::string &FnName,
                  const protocol::Launch &L, void **Args, bool Cooperative,
                  cudaStream_t S) const;
  /// The launches of a sequence, each with the arguments it names.
  Error launchSequence(const std::vector<protocol::Step> &Steps,
                       BufferSet &Bufs, cudaStream_t S) const;
  /// The kernel a step launches: the entry (0) or companion \p K - 1.
  Error stepKernel(size_t K, const void *&Out) const;
  /// Opts the kernel in to \p Bytes of dynamic shared memory when that is
  /// over the default limit.
  cudaError_t allowSharedMemory(const void *Fn, unsigned Bytes) const;
  /// Fills the library's device variables from the symbol buffers of
  /// \p Bufs: the host uploads such tables before each launch.
  Error uploadSymbols(BufferSet &Bufs, cudaStream_t S) const;
  /// The device address of the library's variable \p Symbol.
  Error symbolAddress(const std::string &Symbol, void *&Out) const;

  std::string Path;
  bool IsCandidate = false;
  std::string Name;
  const void *Entry = nullptr;
  /// optiml_kernel_symbol: a variable's host-side handle by name.
  const void *(*SymbolOf)(const char *) = nullptr;
  mutable std::map<std::string, void *> SymbolAddresses;
  /// optiml_kernel_companion: the other kernels a sequence launches.
  const void *(*CompanionOf)(unsigned) = nullptr;
  mutable std::map<size_t, const void *> Companions;
  /// Dynamic shared memory each launched function is opted in to.
  mutable std::map<const void *, unsigned> SharedMemoryAllowed;
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
