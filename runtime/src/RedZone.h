//===- RedZone.h - Canary bytes around every buffer -------------*- C++ -*-===//
//
// Part of OptiML. Every kernel buffer is allocated with a canary-filled red
// zone on each side (Buffers.h), so an out-of-bounds write shows up as
// damaged canary bytes instead of silently corrupting a neighbour. Reading
// the damage from host copies of the zones needs no GPU, so it lives here,
// apart from the CUDA calls, where the unit tests reach it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_REDZONE_H
#define OPTIML_RUNTIME_REDZONE_H

#include <cstddef>
#include <vector>

namespace optiml {

/// Bytes of canary on each side of every buffer. A multiple of 256, so the
/// user region keeps cudaMalloc's alignment.
constexpr size_t RedZoneBytes = 4096;

/// Where the red zones of one buffer were overwritten, if anywhere.
struct RedZoneReport {
  bool Intact = true;
  /// Byte offset of the first damaged byte relative to the start of the
  /// buffer: negative in the left zone, >= the buffer size in the right one.
  long long FirstBadByte = 0;
  unsigned char Expected = 0, Got = 0;
  size_t DamagedBytes = 0;
};

/// The canary bytes every red zone holds (RedZoneBytes of them).
const std::vector<unsigned char> &redZoneCanary();

/// The damage in \p Left and \p Right, host copies of the zones before and
/// after a buffer of \p Bytes user bytes.
RedZoneReport scanRedZones(const std::vector<unsigned char> &Left,
                           const std::vector<unsigned char> &Right,
                           size_t Bytes);

} // namespace optiml

#endif // OPTIML_RUNTIME_REDZONE_H
