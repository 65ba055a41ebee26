//===- KernelLibrary.cpp - A candidate shared object and its ABI ----------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "KernelLibrary.h"
#include "CudaCheck.h"
#include "ElemAccess.h"

#include <array>
#include <cctype>
#include <dlfcn.h>

namespace optiml {

Error KernelLibrary::open(const std::string &Path,
                          std::unique_ptr<KernelLibrary> &Out) {
  // RTLD_LOCAL: the reference and the candidate define the same symbols
  // (optiml_kernel_entry, usually the same kernel name); each lookup must
  // stay inside its own library. The handle is never closed: unloading a
  // library that registered CUDA modules while the runtime is alive is not
  // worth the risk in a process that exits right after measuring.
  dlerror();
  void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *Why = dlerror();
    return Error(Status::LoadError, "cannot load '" + Path + "': " +
                                        (Why ? Why : "unknown dlopen error"));
  }
  using EntryFn = const void *(*)();
  using NameFn = const char *(*)();
  auto GetEntry = reinterpret_cast<EntryFn>(dlsym(Handle, "optiml_kernel_entry"));
  auto GetName = reinterpret_cast<NameFn>(dlsym(Handle, "optiml_kernel_name"));
  if (!GetEntry || !GetName)
    return Error(Status::LoadError,
                 "'" + Path +
                     "' does not export optiml_kernel_entry and "
                     "optiml_kernel_name");
  auto Lib = std::unique_ptr<KernelLibrary>(new KernelLibrary());
  Lib->Path = Path;
  const char *Name = GetName();
  if (!Name || !*Name)
    return Error(Status::LoadError,
                 "'" + Path + "': optiml_kernel_name() returned nothing");
  Lib->Name = Name;
  Lib->Entry = GetEntry();
  // Optional: a library built before symbols existed has none to fill.
  Lib->SymbolOf = reinterpret_cast<const void *(*)(const char *)>(
      dlsym(Handle, "optiml_kernel_symbol"));
  Lib->CompanionOf = reinterpret_cast<const void *(*)(unsigned)>(
      dlsym(Handle, "optiml_kernel_companion"));
  if (Error E = Lib->checkEntry())
    return E;
  Out = std::move(Lib);
  return Error::success();
}

Error KernelLibrary::checkEntry() const {
  // The runner launches this address itself, so it must be a kernel the
  // library registered, and the one the timing records will name.
  const char *Registered = nullptr;
  cudaError_t E =
      Entry ? cudaFuncGetName(&Registered, Entry) : cudaErrorInvalidValue;
  if (E != cudaSuccess || !Registered) {
    (void)cudaGetLastError();
    return Error(Status::LoadError,
                 "'" + Path +
                     "': optiml_kernel_entry() is not a kernel of the "
                     "library (" +
                     describeCudaError(E) + ")");
  }
  if (!kernelNameMatches(Registered, Name))
    return Error(Status::LoadError,
                 "'" + Path + "': optiml_kernel_entry() is kernel '" +
                     Registered + "', not '" + Name + "'");
  return Error::success();
}

std::optional<protocol::KernelAttributes> KernelLibrary::attributes() const {
  cudaFuncAttributes A;
  if (cudaFuncGetAttributes(&A, Entry) != cudaSuccess) {
    (void)cudaGetLastError();
    return std::nullopt;
  }
  protocol::KernelAttributes K;
  K.Registers = A.numRegs;
  K.SharedBytes = A.sharedSizeBytes;
  K.LocalBytes = A.localSizeBytes;
  K.ConstBytes = A.constSizeBytes;
  K.MaxThreadsPerBlock = A.maxThreadsPerBlock;
  K.BinaryVersion = A.binaryVersion;
  K.PtxVersion = A.ptxVersion;
  return K;
}

Error KernelLibrary::symbolAddress(const std::string &Symbol,
                                   void *&Out) const {
  auto Known = SymbolAddresses.find(Symbol);
  if (Known != SymbolAddresses.end()) {
    Out = Known->second;
    return Error::success();
  }
  const void *Handle = SymbolOf ? SymbolOf(Symbol.c_str()) : nullptr;
  if (!Handle)
    return Error(Status::LoadError, "'" + Path +
                                        "' does not define the device "
                                        "variable '" +
                                        Symbol + "'");
  if (Error E = checkCuda(cudaGetSymbolAddress(&Out, Handle),
                          "cudaGetSymbolAddress('" + Symbol + "')"))
    return E;
  SymbolAddresses[Symbol] = Out;
  return Error::success();
}

Error KernelLibrary::uploadSymbols(BufferSet &Bufs, cudaStream_t S) const {
  const Instance &I = Bufs.instance();
  for (size_t K = 0; K < I.Args.size(); ++K) {
    const Arg &A = I.Args[K];
    if (!A.Symbol)
      continue;
    void *Device = nullptr;
    if (Error E = symbolAddress(A.Name, Device))
      return E;
    if (Error E =
            checkCuda(cudaMemcpyAsync(Device, Bufs.buffer(K).data(), A.bytes(),
                                      cudaMemcpyDeviceToDevice, S),
                      "upload of symbol '" + A.Name + "'"))
      return E;
  }
  return Error::success();
}

Error KernelLibrary::launch(const Instance &I, BufferSet &Bufs,
                            cudaStream_t S) const {
  if (Error E = uploadSymbols(Bufs, S))
    return E;
  Side Own = IsCandidate ? Side::Candidate : Side::Reference;
  if (!I.Sequence.empty())
    return launchSequence(I.sequenceOf(Own), Bufs, S);
  return launchOne(Entry, Name, I.launchOf(Own), Bufs.launchArgs(), false, S);
}

Error KernelLibrary::launchSteps(const std::vector<protocol::Step> &Steps,
                                 BufferSet &Bufs, cudaStream_t S) const {
  if (Error E = uploadSymbols(Bufs, S))
    return E;
  return launchSequence(Steps, Bufs, S);
}

Error KernelLibrary::launchSequence(const std::vector<protocol::Step> &Steps,
                                    BufferSet &Bufs, cudaStream_t S) const {
  // NULL arguments point here; scalars live in Values for the one launch
  // (cudaLaunchKernel copies the arguments before it returns).
  static void *const Null = nullptr;
  std::vector<void *> Args;
  std::vector<std::array<unsigned char, 8>> Values;
  for (size_t K = 0; K < Steps.size(); ++K) {
    const protocol::Step &St = Steps[K];
    const void *Fn = nullptr;
    if (Error E = stepKernel(St.Kernel, Fn))
      return E;
    Args.assign(St.Args.size(), nullptr);
    Values.assign(St.Args.size(), {});
    for (size_t A = 0; A < St.Args.size(); ++A) {
      const protocol::StepArg &SA = St.Args[A];
      if (SA.Buffer) {
        Args[A] = Bufs.pointerSlot(*SA.Buffer);
      } else if (SA.Null) {
        Args[A] = const_cast<void **>(&Null);
      } else {
        storeValue(SA.Type, SA.Value, Values[A].data());
        Args[A] = Values[A].data();
      }
    }
    std::string What =
        St.Kernel == 0 ? Name : "companion " + std::to_string(St.Kernel);
    if (Error E = launchOne(Fn,
                            What + " (launch " + std::to_string(K + 1) +
                                " of " + std::to_string(Steps.size()) + ")",
                            St.Geometry, Args.data(), St.Cooperative, S))
      return E;
  }
  return Error::success();
}

Error KernelLibrary::stepKernel(size_t K, const void *&Out) const {
  if (K == 0) {
    Out = Entry;
    return Error::success();
  }
  auto Known = Companions.find(K);
  if (Known != Companions.end()) {
    Out = Known->second;
    return Error::success();
  }
  const void *Fn =
      CompanionOf ? CompanionOf(static_cast<unsigned>(K - 1)) : nullptr;
  const char *Registered = nullptr;
  if (!Fn || cudaFuncGetName(&Registered, Fn) != cudaSuccess) {
    (void)cudaGetLastError();
    return Error(Status::LoadError,
                 "'" + Path + "' does not export the sequence's kernel " +
                     std::to_string(K) + " (optiml_kernel_companion(" +
                     std::to_string(K - 1) + "))");
  }
  Companions[K] = Out = Fn;
  return Error::success();
}

Error KernelLibrary::launchOne(const void *Fn, const std::string &FnName,
                               const protocol::Launch &L, void **Args,
                               bool Cooperative, cudaStream_t S) const {
  // Clear any stale, non-sticky error so cudaGetLastError() below reports
  // this launch only.
  (void)cudaGetLastError();
  dim3 Grid(L.Grid[0], L.Grid[1], L.Grid[2]);
  dim3 Block(L.Block[0], L.Block[1], L.Block[2]);
  cudaError_t E = allowSharedMemory(Fn, L.Shmem);
  // A cooperative launch is refused, not hung, when the grid cannot be
  // resident at once (cudaErrorCooperativeLaunchTooLarge).
  if (E == cudaSuccess)
    E = Cooperative
            ? cudaLaunchCooperativeKernel(Fn, Grid, Block, Args, L.Shmem, S)
            : cudaLaunchKernel(Fn, Grid, Block, Args, L.Shmem, S);
  if (E == cudaSuccess)
    E = cudaGetLastError();
  if (E == cudaSuccess)
    return Error::success();
  Status St = isStickyError(E) ? Status::Fault : Status::LaunchError;
  return Error(St, "launch of '" + FnName + "' (" + Path +
                       ") failed: " + describeCudaError(E));
}

cudaError_t KernelLibrary::allowSharedMemory(const void *Fn,
                                             unsigned Bytes) const {
  // Beyond 48 KiB of dynamic shared memory a kernel must opt in.
  const unsigned Default = 48u * 1024u;
  unsigned &Allowed = SharedMemoryAllowed[Fn];
  if (Bytes <= Default || Bytes <= Allowed)
    return cudaSuccess;
  cudaError_t E = cudaFuncSetAttribute(
      Fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)Bytes);
  if (E == cudaSuccess)
    Allowed = Bytes;
  return E;
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
