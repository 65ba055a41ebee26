//===- Buffers.cpp - Device buffers with red zones ------------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"
#include "CudaCheck.h"
#include "ElemAccess.h"

#include <cstring>
#include <utility>

namespace optiml {

DeviceBuffer::DeviceBuffer(DeviceBuffer &&Other) noexcept
    : Base(std::exchange(Other.Base, nullptr)),
      Bytes(std::exchange(Other.Bytes, 0)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&Other) noexcept {
  if (this != &Other) {
    if (Base)
      cudaFree(Base);
    Base = std::exchange(Other.Base, nullptr);
    Bytes = std::exchange(Other.Bytes, 0);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  // Errors are ignored: after a fault every call fails and there is nothing
  // left to do about a leak.
  if (Base)
    cudaFree(Base);
}

Error DeviceBuffer::allocate(size_t UserBytes) {
  void *P = nullptr;
  size_t Total = UserBytes + 2 * RedZoneBytes;
  if (Error E = checkCuda(cudaMalloc(&P, Total),
                          "cudaMalloc(" + std::to_string(Total) + " bytes)"))
    return E;
  Base = static_cast<unsigned char *>(P);
  Bytes = UserBytes;
  return Error::success();
}

Error DeviceBuffer::upload(const std::vector<unsigned char> &Host,
                           cudaStream_t S) {
  if (Host.size() != Bytes)
    return Error(Status::Error, "upload: host size does not match buffer");
  return checkCuda(
      cudaMemcpyAsync(data(), Host.data(), Bytes, cudaMemcpyHostToDevice, S),
      "cudaMemcpyAsync(upload)");
}

Error DeviceBuffer::fill(unsigned char Byte, cudaStream_t S) {
  return checkCuda(cudaMemsetAsync(data(), Byte, Bytes, S),
                   "cudaMemsetAsync(poison)");
}

Error DeviceBuffer::resetRedZones(cudaStream_t S) {
  const std::vector<unsigned char> &C = redZoneCanary();
  if (Error E = checkCuda(cudaMemcpyAsync(Base, C.data(), RedZoneBytes,
                                          cudaMemcpyHostToDevice, S),
                          "cudaMemcpyAsync(left red zone)"))
    return E;
  return checkCuda(cudaMemcpyAsync(Base + RedZoneBytes + Bytes, C.data(),
                                   RedZoneBytes, cudaMemcpyHostToDevice, S),
                   "cudaMemcpyAsync(right red zone)");
}

Error DeviceBuffer::copyFrom(const DeviceBuffer &Src, cudaStream_t S) {
  if (Src.Bytes != Bytes)
    return Error(Status::Error, "copyFrom: buffer sizes differ");
  return checkCuda(
      cudaMemcpyAsync(data(), Src.data(), Bytes, cudaMemcpyDeviceToDevice, S),
      "cudaMemcpyAsync(restore)");
}

Error DeviceBuffer::download(std::vector<unsigned char> &User,
                             RedZoneReport &Zones, cudaStream_t S) {
  std::vector<unsigned char> Left(RedZoneBytes), Right(RedZoneBytes);
  User.resize(Bytes);
  if (Error E = checkCuda(cudaMemcpyAsync(Left.data(), Base, RedZoneBytes,
                                          cudaMemcpyDeviceToHost, S),
                          "cudaMemcpyAsync(download left zone)"))
    return E;
  if (Error E = checkCuda(cudaMemcpyAsync(User.data(), data(), Bytes,
                                          cudaMemcpyDeviceToHost, S),
                          "cudaMemcpyAsync(download)"))
    return E;
  if (Error E =
          checkCuda(cudaMemcpyAsync(Right.data(), Base + RedZoneBytes + Bytes,
                                    RedZoneBytes, cudaMemcpyDeviceToHost, S),
                    "cudaMemcpyAsync(download right zone)"))
    return E;
  if (Error E = checkCuda(cudaStreamSynchronize(S),
                          "cudaStreamSynchronize(download)"))
    return E;
  Zones = scanRedZones(Left, Right, Bytes);
  return Error::success();
}

Error BufferSet::allocate(const Instance &I) {
  Inst = &I;
  size_t N = I.Args.size();
  Buffers.clear();
  Buffers.resize(N);
  Pristine.clear();
  Pristine.resize(N);
  DevicePtrs.assign(N, nullptr);
  Scalars.assign(N, ScalarSlot{});
  ArgPtrs.assign(N, nullptr);
  for (size_t K = 0; K < N; ++K) {
    const Arg &A = I.Args[K];
    if (A.AliasOf) {
      // The slot of the buffer it aliases, filled when that is allocated.
      ArgPtrs[K] = &DevicePtrs[*A.AliasOf];
      continue;
    }
    if (!A.isBuffer()) {
      storeScalar(A, Scalars[K].Bytes);
      ArgPtrs[K] = Scalars[K].Bytes;
      continue;
    }
    if (Error E = Buffers[K].allocate(A.bytes()))
      return E.withContext("buffer '" + A.Name + "'");
    DevicePtrs[K] = Buffers[K].data();
    // A symbol is not passed: the launch copies it into the library; an
    // extra buffer is passed by the sequence's other launches only.
    if (A.isParameter())
      ArgPtrs[K] = &DevicePtrs[K];
  }
  return Error::success();
}

Error BufferSet::loadInputs(const Instance &I, uint64_t Seed, cudaStream_t S) {
  if (Error E = allocate(I))
    return E;
  return prepare(*sharedInputs(I, Seed), 0xFF, S);
}

Error BufferSet::prepare(const HostInputs &Inputs, unsigned char Poison,
                         cudaStream_t S) {
  for (size_t K = 0; K < Inst->Args.size(); ++K) {
    const Arg &A = Inst->Args[K];
    if (!A.isBuffer())
      continue;
    DeviceBuffer &B = Buffers[K];
    if (Error E = B.resetRedZones(S))
      return E;
    Error E =
        A.Role == ArgRole::Out ? B.fill(Poison, S) : B.upload(Inputs[K], S);
    if (E)
      return E.withContext("buffer '" + A.Name + "'");
  }
  return Error::success();
}

Error BufferSet::snapshotInOut(cudaStream_t S) {
  for (size_t K = 0; K < Inst->Args.size(); ++K) {
    const Arg &A = Inst->Args[K];
    if (A.Role != ArgRole::InOut)
      continue;
    if (!Pristine[K].allocated())
      if (Error E = Pristine[K].allocate(A.bytes()))
        return E.withContext("pristine copy of '" + A.Name + "'");
    if (Error E = Pristine[K].copyFrom(Buffers[K], S))
      return E;
  }
  return Error::success();
}

Error BufferSet::restoreInOut(cudaStream_t S) {
  for (size_t K = 0; K < Inst->Args.size(); ++K)
    if (Pristine[K].allocated())
      if (Error E = Buffers[K].copyFrom(Pristine[K], S))
        return E;
  return Error::success();
}

} // namespace optiml
