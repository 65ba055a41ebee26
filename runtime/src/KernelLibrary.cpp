//===- KernelLibrary.cpp - A candidate shared object and its ABI ----------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "KernelLibrary.h"
#include "CudaCheck.h"

#include <cctype>
#include <dlfcn.h>

namespace optiml {

Error KernelLibrary::open(const std::string &Path,
                          std::unique_ptr<KernelLibrary> &Out) {
  // RTLD_LOCAL: the reference and the candidate define the same symbols
  // (optiml_launch, usually the same kernel name); each lookup must stay
  // inside its own library. The handle is never closed: unloading a library
  // that registered CUDA modules while the runtime is alive is not worth the
  // risk in a process that exits right after measuring.
  dlerror();
  void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *Why = dlerror();
    return Error(Status::LoadError, "cannot load '" + Path + "': " +
                                        (Why ? Why : "unknown dlopen error"));
  }
  auto Lib = std::unique_ptr<KernelLibrary>(new KernelLibrary());
  Lib->Path = Path;
  Lib->Launch = reinterpret_cast<LaunchFn>(dlsym(Handle, "optiml_launch"));
  using NameFn = const char *(*)();
  auto GetName = reinterpret_cast<NameFn>(dlsym(Handle, "optiml_kernel_name"));
  if (!Lib->Launch || !GetName)
    return Error(Status::LoadError,
                 "'" + Path +
                     "' does not export optiml_launch and optiml_kernel_name");
  const char *Name = GetName();
  if (!Name || !*Name)
    return Error(Status::LoadError,
                 "'" + Path + "': optiml_kernel_name() returned nothing");
  Lib->Name = Name;
  Out = std::move(Lib);
  return Error::success();
}

Error KernelLibrary::launch(const Instance &I, void **Args,
                            cudaStream_t S) const {
  // Clear any stale, non-sticky error so the launcher's cudaGetLastError()
  // reports this launch only.
  (void)cudaGetLastError();
  const protocol::Launch &L =
      I.launchOf(IsCandidate ? Side::Candidate : Side::Reference);
  int Code = Launch(L.Grid.data(), L.Block.data(), L.Shmem, S, Args);
  if (Code == 0)
    return Error::success();
  auto E = static_cast<cudaError_t>(Code);
  Status St = isStickyError(E) ? Status::Fault : Status::LaunchError;
  return Error(St, "optiml_launch of '" + Name + "' (" + Path + ") returned " +
                       describeCudaError(E));
}

Error syncKernels(cudaStream_t S, const std::string &What) {
  cudaError_t E = cudaStreamSynchronize(S);
  if (E == cudaSuccess)
    return Error::success();
  return Error(Status::Fault, What + " failed: " + describeCudaError(E));
}

bool kernelNameMatches(const std::string &RecordName, const std::string &Name) {
  if (RecordName == Name)
    return true; // extern "C" kernels are not mangled.
  // Itanium mangling writes an identifier as <length><name>, whatever the
  // namespaces, template arguments or parameters around it.
  std::string Needle = std::to_string(Name.size()) + Name;
  for (size_t Pos = RecordName.find(Needle); Pos != std::string::npos;
       Pos = RecordName.find(Needle, Pos + 1)) {
    if (Pos == 0 ||
        !std::isdigit(static_cast<unsigned char>(RecordName[Pos - 1])))
      return true;
  }
  return false;
}

} // namespace optiml
