//===- Buffers.h - Device buffers with red zones ----------------*- C++ -*-===//
//
// Part of OptiML. Every kernel buffer is allocated with a canary-filled red
// zone on each side (RedZone.h), so an out-of-bounds write shows up as
// damaged canary bytes instead of silently corrupting a neighbour.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_BUFFERS_H
#define OPTIML_RUNTIME_BUFFERS_H

#include "Inputs.h"
#include "Plan.h"
#include "RedZone.h"
#include "Status.h"

#include <cuda_runtime.h>
#include <vector>

namespace optiml {

/// One device allocation: [red zone | user bytes | red zone].
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&Other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&Other) noexcept;
  ~DeviceBuffer();

  Error allocate(size_t Bytes);
  bool allocated() const { return Base != nullptr; }
  void *data() const { return Base + RedZoneBytes; }
  size_t bytes() const { return Bytes; }
  const void *leftZone() const { return Base; }
  const void *rightZone() const { return Base + RedZoneBytes + Bytes; }

  Error upload(const std::vector<unsigned char> &Host, cudaStream_t S);
  Error fill(unsigned char Byte, cudaStream_t S);
  Error resetRedZones(cudaStream_t S);
  /// Device-to-device copy of the user bytes of \p Src (same size).
  Error copyFrom(const DeviceBuffer &Src, cudaStream_t S);
  /// Copies the user bytes to \p User and checks both red zones; synchronizes
  /// \p S.
  Error download(std::vector<unsigned char> &User, RedZoneReport &Zones,
                 cudaStream_t S);

private:
  unsigned char *Base = nullptr;
  size_t Bytes = 0;
};

/// The device-side arguments of one instance: a DeviceBuffer per buffer
/// argument, scalar values in aligned slots, and the void* array that the
/// launcher ABI takes.
class BufferSet {
public:
  BufferSet() = default;
  BufferSet(const BufferSet &) = delete;
  BufferSet &operator=(const BufferSet &) = delete;

  Error allocate(const Instance &I);

  /// allocate() and prepare() with the inputs of \p Seed and out buffers
  /// poisoned with 0xFF: where timing, profiling and energy start.
  Error loadInputs(const Instance &I, uint64_t Seed, cudaStream_t S);

  /// Readies one verification run: fresh red zones, in/inout buffers hold
  /// \p Inputs, out buffers are filled with the \p Poison byte.
  Error prepare(const HostInputs &Inputs, unsigned char Poison, cudaStream_t S);

  /// Keeps a device copy of every inout buffer, so restoreInOut can undo a
  /// kernel's updates and every timed launch sees the same data.
  Error snapshotInOut(cudaStream_t S);
  Error restoreInOut(cudaStream_t S);

  /// args[i] points at the value of kernel parameter i (for a buffer, at the
  /// device pointer), as optiml_launch expects.
  void **launchArgs() { return ArgPtrs.data(); }

  /// Where the device pointer of buffer \p ArgIndex is kept: what a
  /// launch's argument array points at for that buffer.
  void **pointerSlot(size_t ArgIndex) { return &DevicePtrs[ArgIndex]; }

  DeviceBuffer &buffer(size_t ArgIndex) { return Buffers[ArgIndex]; }
  const Instance &instance() const { return *Inst; }

private:
  struct alignas(8) ScalarSlot {
    unsigned char Bytes[8];
  };

  const Instance *Inst = nullptr;
  std::vector<DeviceBuffer> Buffers;  ///< By argument; empty for scalars.
  std::vector<DeviceBuffer> Pristine; ///< By argument; only for inout.
  std::vector<void *> DevicePtrs;     ///< By argument.
  std::vector<ScalarSlot> Scalars;    ///< By argument.
  std::vector<void *> ArgPtrs;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_BUFFERS_H
