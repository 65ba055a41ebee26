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

#include "optiml/Protocol/RunResult.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

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
// Coalescing: 32-byte sectors moved per warp-level global request.
inline constexpr const char *GlobalLoadSectors =
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char *GlobalLoadRequests =
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char *GlobalStoreSectors =
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char *GlobalStoreRequests =
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
// Bank conflicts: shared-memory wavefronts beyond one per warp instruction,
// and the hardware's own conflict count.
inline constexpr const char *SharedLoadWavefronts =
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr const char *SharedStoreWavefronts =
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr const char *SharedLoadInsts =
    "smsp__inst_executed_op_shared_ld.sum";
inline constexpr const char *SharedStoreInsts =
    "smsp__inst_executed_op_shared_st.sum";
inline constexpr const char *SharedLoadBankConflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr const char *SharedStoreBankConflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
// Divergence: active threads per executed warp instruction, and those of
// them not predicated off.
inline constexpr const char *ThreadInsts = "smsp__thread_inst_executed.sum";
inline constexpr const char *ThreadInstsPredOn =
    "smsp__thread_inst_executed_pred_on.sum";
inline constexpr const char *WarpInsts = "smsp__inst_executed.sum";
/// Branches whose threads all went one way, %; SASS-instrumented.
inline constexpr const char *BranchUniformity =
    "smsp__sass_average_branch_targets_threads_uniform.pct";
} // namespace metric

/// The direction of a memory access, for the per-direction ratios.
enum class MemOp { Load, Store };

class KernelCounters {
public:
  KernelCounters() = default;
  explicit KernelCounters(std::map<std::string, double> Values)
      : Values(std::move(Values)) {}

  /// The counters of instance \p Instance, side \p Side of a runner
  /// result. An error when the result has no metrics (not asked for, or the
  /// profiler failed: its message is kept).
  static llvm::Expected<KernelCounters>
  fromRunnerResult(const protocol::RunResult &Result,
                   protocol::Side Side = protocol::Side::Candidate,
                   unsigned Instance = 0);

  std::optional<double> get(llvm::StringRef Name) const;
  bool empty() const { return Values.empty(); }
  const std::map<std::string, double> &values() const { return Values; }

  std::optional<double> durationNs() const { return get(metric::Duration); }
  /// DRAM bytes read plus written; absent unless both are known.
  std::optional<double> dramBytes() const;
  /// fadd + fmul + 2 ffma; absent unless all three are known.
  std::optional<double> fp32Flops() const;

  /// Global sectors per warp request in direction \p Op: 4 when a warp's
  /// 4-byte accesses are contiguous, up to 32 when every lane touches its own
  /// sector. Absent unless both counters are known and requests were made.
  std::optional<double> globalSectorsPerRequest(MemOp Op) const;
  /// Shared-memory wavefronts beyond one per warp instruction, per
  /// instruction, in direction \p Op: 0 without bank conflicts, 31 for a
  /// 32-way conflict. Absent unless both counters are known and instructions
  /// were executed.
  std::optional<double> sharedExcessWavefrontsPerInst(MemOp Op) const;
  /// The same over loads and stores together; absent unless all four
  /// counters are known and shared instructions were executed.
  std::optional<double> sharedExcessWavefrontsPerInst() const;
  /// The hardware's bank-conflict count per shared instruction in direction
  /// \p Op; absent unless both counters are known and instructions were
  /// executed.
  std::optional<double> sharedBankConflictsPerInst(MemOp Op) const;
  /// The same over loads and stores together; absent unless all four
  /// counters are known and shared instructions were executed.
  std::optional<double> sharedBankConflictsPerInst() const;
  /// Active threads per executed warp instruction: 32 without divergent
  /// branches.
  std::optional<double> threadsPerWarpInst() const;
  /// Threads neither inactive nor predicated off per executed warp
  /// instruction: also counts the lanes that a branch the compiler turned
  /// into predication leaves idle (a tree reduction's `if (tid < stride)`).
  std::optional<double> predicatedOnThreadsPerWarpInst() const;

private:
  std::map<std::string, double> Values;
};

} // namespace optiml

#endif // OPTIML_PROFILE_KERNELCOUNTERS_H
