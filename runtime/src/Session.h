//===- Session.h - What outlives one plan in a runner -----------*- C++ -*-===//
//
// Part of OptiML. A serving runner (--serve) runs one plan after another in
// one process: the CUDA context, the stream, the L2 flush buffer, the
// reference library, the reference's verified outputs and its counters are
// made once and reused, so a candidate pays only for its own runs. A one-shot
// runner has a session for its one plan, with no reference cache.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_SESSION_H
#define OPTIML_RUNTIME_SESSION_H

#include "Device.h"
#include "KernelLibrary.h"
#include "L2Flush.h"
#include "MetricsPass.h"
#include "ReferenceCache.h"

#include <cuda_runtime.h>
#include <map>
#include <memory>
#include <string>

namespace optiml {

class Session {
public:
  explicit Session(bool Serving) : Serving(Serving) {}
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;
  ~Session();

  /// The GPU (device 0 of what CUDA_VISIBLE_DEVICES exposes) and a stream
  /// on it, set up at the first call.
  Error device(const DeviceInfo *&Out);
  cudaStream_t stream() const { return Stream; }

  /// The L2 flush buffer, allocated at the first call (after device()).
  Error flusher(L2Flusher *&Out);

  /// The library at \p Path, loaded at its first use and kept: references
  /// only (a candidate is loaded for its plan alone).
  Error reference(const std::string &Path, const KernelLibrary *&Out);

  /// The reference's kept outputs; null in a one-shot runner.
  ReferenceCache *referenceCache() { return Serving ? &Cache : nullptr; }

  /// The reference's kept counters; null in a one-shot runner.
  ReferenceMetrics *referenceMetrics() { return Serving ? &Metrics : nullptr; }

private:
  bool Serving;
  bool DeviceReady = false;
  DeviceInfo Info;
  cudaStream_t Stream = nullptr;
  L2Flusher Flusher;
  bool FlusherReady = false;
  std::map<std::string, std::unique_ptr<KernelLibrary>> References;
  ReferenceCache Cache;
  ReferenceMetrics Metrics;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_SESSION_H
