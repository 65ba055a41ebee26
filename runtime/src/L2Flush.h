//===- L2Flush.h - Evict the L2 cache between timed launches ----*- C++ -*-===//
//
// Part of OptiML. Timed repetitions must not profit from data a previous
// repetition left in L2, so before each one we write a scratch buffer of
// twice the L2 size. The flush kernel has an unmangled, fixed name so the
// timer can recognise and drop its CUPTI records.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_L2FLUSH_H
#define OPTIML_RUNTIME_L2FLUSH_H

#include "Status.h"

#include <cstddef>
#include <cuda_runtime.h>

namespace optiml {

class L2Flusher {
public:
  L2Flusher() = default;
  L2Flusher(const L2Flusher &) = delete;
  L2Flusher &operator=(const L2Flusher &) = delete;
  ~L2Flusher();

  /// Allocates the scratch buffer: 2 x \p L2Bytes (at least 1 MiB).
  Error init(size_t L2Bytes);

  /// Enqueues one flush kernel on \p S.
  Error flush(cudaStream_t S);

  size_t scratchBytes() const { return Bytes; }

  /// The kernel's name as it appears in CUPTI records.
  static const char *kernelName();

private:
  void *Scratch = nullptr;
  size_t Bytes = 0;
  unsigned Calls = 0;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_L2FLUSH_H
