//===- Session.cpp - What outlives one plan in a runner -------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Session.h"
#include "CudaCheck.h"

namespace optiml {

Session::~Session() {
  if (Stream)
    cudaStreamDestroy(Stream);
}

Error Session::device(const DeviceInfo *&Out) {
  if (!DeviceReady) {
    if (Error E = checkGpuPresent())
      return E;
    if (Error E = queryDevice(0, Info))
      return E;
    if (Error E =
            checkCuda(cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking),
                      "cudaStreamCreateWithFlags"))
      return E;
    DeviceReady = true;
  }
  Out = &Info;
  return Error::success();
}

Error Session::flusher(L2Flusher *&Out) {
  if (!FlusherReady) {
    if (Error E = Flusher.init(Info.L2Bytes))
      return E;
    FlusherReady = true;
  }
  Out = &Flusher;
  return Error::success();
}

Error Session::reference(const std::string &Path, const KernelLibrary *&Out) {
  std::unique_ptr<KernelLibrary> &Kept = References[Path];
  if (!Kept)
    if (Error E = KernelLibrary::open(Path, Kept)) {
      References.erase(Path);
      return E;
    }
  Out = Kept.get();
  return Error::success();
}

} // namespace optiml
