//===- RangeProfiler.h - Counters via CUPTI Range Profiler -*- C++ -*-===//
//
// Part of OptiML. Metrics are collected in their own pass, after timing,
// with CUPTI's Range Profiling API (cupti_range_profiler.h) and the profiler
// host API (cupti_profiler_host.h) that turns counters into metric values.
//
// Mode: auto range + kernel replay. Each kernel launched between
// cuptiRangeProfilerStart and cuptiRangeProfilerStop is its own range, and
// CUPTI replays it as many times as the metric set needs, saving and
// restoring device memory in between. User ranges were avoided on purpose:
// their time-based metrics include range bookkeeping and come out inflated.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_RANGEPROFILER_H
#define OPTIML_RUNTIME_RANGEPROFILER_H

#include "Status.h"

#include <cuda.h>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace optiml {

/// The metrics the runner collects: time, DRAM traffic, SOL throughputs,
/// achieved occupancy, FP32 instruction counts and cache hit rates.
const std::vector<std::string> &defaultMetrics();

class RangeProfiler {
public:
  RangeProfiler(const RangeProfiler &) = delete;
  RangeProfiler &operator=(const RangeProfiler &) = delete;
  ~RangeProfiler();

  /// cuptiProfilerInitialize, chip name and counter availability for device
  /// \p Ordinal, whose primary context must be current.
  static Error create(int Ordinal, std::unique_ptr<RangeProfiler> &Out);

  const std::string &chipName() const { return ChipName; }

  /// Splits \p Wanted into the metrics this chip knows and the rest.
  Error partition(const std::vector<std::string> &Wanted,
                  std::vector<std::string> &Supported,
                  std::vector<std::string> &Unsupported);

  /// Profiles one kernel. \p Prepare runs before profiling starts (restore
  /// inputs, flush L2: kernels it launches are not profiled); \p Launch
  /// enqueues exactly the kernel to profile; \p Sync waits for it.
  Error profile(const std::vector<std::string> &Metrics,
                const std::function<Error()> &Prepare,
                const std::function<Error()> &Launch,
                const std::function<Error()> &Sync,
                std::map<std::string, double> &Values, size_t &Passes);

private:
  RangeProfiler() = default;

  CUcontext Ctx = nullptr;
  std::string ChipName;
  std::vector<uint8_t> CounterAvailability;
  bool Initialized = false;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_RANGEPROFILER_H
