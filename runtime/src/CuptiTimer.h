//===- CuptiTimer.h - Kernel durations from CUPTI activity -*- C++ -*-===//
//
// Part of OptiML. Kernel durations come from CUPTI's
// CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL records (GPU start/end timestamps),
// not from host timers or events, so launch overhead and host jitter do not
// enter the measurement.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_CUPTITIMER_H
#define OPTIML_RUNTIME_CUPTITIMER_H

#include "Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace optiml {

/// One kernel execution as CUPTI saw it.
struct KernelRecord {
  std::string Name;            ///< Usually mangled.
  uint64_t Start = 0, End = 0; ///< GPU timestamps, ns.
  uint32_t CorrelationId = 0;  ///< Increases with the order of launch calls.

  uint64_t durationNs() const { return End - Start; }
};

class CuptiTimer {
public:
  CuptiTimer(const CuptiTimer &) = delete;
  CuptiTimer &operator=(const CuptiTimer &) = delete;
  ~CuptiTimer();

  /// Registers the buffer callbacks (once per process) and enables kernel
  /// records. Only one CuptiTimer may exist at a time.
  static Error start(std::unique_ptr<CuptiTimer> &Out);

  /// Waits for the device, makes CUPTI deliver its buffers, and moves out the
  /// kernel records completed since the last call, sorted by correlation id
  /// (that is, in launch order). \p Lost counts records CUPTI dropped or
  /// delivered without timestamps.
  Error collect(std::vector<KernelRecord> &Out, size_t &Lost);

  /// Disables kernel records and discards what is still buffered. Called by
  /// the destructor too; profiling with the Range Profiler must not overlap
  /// with tracing.
  Error stop();

private:
  CuptiTimer() = default;
  bool Running = false;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_CUPTITIMER_H
