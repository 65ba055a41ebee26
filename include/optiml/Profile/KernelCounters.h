//===- KernelCounters.h - one kernel's hardware counters --------*- C++ -*-===//
//
// The runner's metrics pass gives a flat map of CUPTI metric names to
// numbers per instance and side (docs/Runner.md). Analyzers read them by
// name through the accessors below, so a metric the chip did not report is
// "absent", never zero.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_KERNELCOUNTERS_H
#define OPTIML_PROFILE_KERNELCOUNTERS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <optional>
#include <string>

namespace optiml {

namespace metric {
inline constexpr const char *Duration = "gpu__time_duration.sum";
inline constexpr const char *DramRead = "dram__bytes_read.sum";
inline constexpr const char *DramWrite = "dram__bytes_write.sum";
inline constexpr const char *SmThroughput =
    "sm__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char *MemThroughput =
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char *WarpsActive =
    "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char *FAdd =
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
inline constexpr const char *FMul =
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
inline constexpr const char *FFma =
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
inline constexpr const char *L1HitRate = "l1tex__t_sector_hit_rate.pct";
inline constexpr const char *L2HitRate = "lts__t_sector_hit_rate.pct";
} // namespace metric

class KernelCounters {
public:
  KernelCounters() = default;
  explicit KernelCounters(std::map<std::string, double> Values)
      : Values(std::move(Values)) {}

  /// The counters of instance \p Instance, side \p Side ("candidate" or
  /// "reference") of a runner result. An error when the result has no
  /// metrics (not asked for, or the profiler failed: its message is kept).
  static llvm::Expected<KernelCounters>
  fromRunnerResult(const nlohmann::json &Result,
                   llvm::StringRef Side = "candidate", unsigned Instance = 0);

  std::optional<double> get(llvm::StringRef Name) const;
  bool empty() const { return Values.empty(); }
  const std::map<std::string, double> &values() const { return Values; }

  std::optional<double> durationNs() const { return get(metric::Duration); }
  /// DRAM bytes read plus written; absent unless both are known.
  std::optional<double> dramBytes() const;
  /// fadd + fmul + 2 ffma; absent unless all three are known.
  std::optional<double> fp32Flops() const;

private:
  std::map<std::string, double> Values;
};

} // namespace optiml

#endif // OPTIML_PROFILE_KERNELCOUNTERS_H
