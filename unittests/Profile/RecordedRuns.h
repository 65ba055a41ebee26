//===- RecordedRuns.h - the examples on an H200 -----------------*- C++ -*-===//
//
// Counter sets shaped like the runner's result JSON, built from the
// self-evaluation of the examples on an H200 (time, DRAM GB/s, SM%, Mem%,
// achieved occupancy); bytes are GB/s x time, FLOPs the kernels' counts,
// hit rates typical of each access pattern.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_UNITTESTS_PROFILE_RECORDEDRUNS_H
#define OPTIML_UNITTESTS_PROFILE_RECORDEDRUNS_H

#include "optiml/Profile/ProfileInput.h"

#include <nlohmann/json.hpp>

namespace optiml::test {

struct RecordedRun {
  double TimeMs, DramGBs, SmPct, MemPct, OccPct;
  double FAdd, FMul, FFma;
  double WriteBytes; ///< The rest of the DRAM traffic is reads.
  double L1Hit, L2Hit;
};

/// A runner result with device peaks of an H200 and \p R's counters as the
/// candidate's metrics of instance 0.
inline nlohmann::json h200Result(const RecordedRun &R) {
  double Bytes = R.DramGBs * 1e9 * R.TimeMs * 1e-3;
  nlohmann::json Values = {
      {"gpu__time_duration.sum", R.TimeMs * 1e6},
      {"dram__bytes_read.sum", Bytes - R.WriteBytes},
      {"dram__bytes_write.sum", R.WriteBytes},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", R.SmPct},
      {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
       R.MemPct},
      {"sm__warps_active.avg.pct_of_peak_sustained_active", R.OccPct},
      {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", R.FAdd},
      {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", R.FMul},
      {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", R.FFma},
      {"l1tex__t_sector_hit_rate.pct", R.L1Hit},
      {"lts__t_sector_hit_rate.pct", R.L2Hit}};
  return {{"status", "ok"},
          {"device",
           {{"name", "NVIDIA H200"},
            {"cc", "9.0"},
            {"sms", 132},
            {"peaks",
             {{"dram_bytes_per_s", 4.8e12}, {"fp32_flops_per_s", 6.7e13}}}}},
          {"metrics",
           {{"error", nullptr},
            {"instances",
             {{{"instance", "large"},
               {"reference", {{"values", Values}}},
               {"candidate", {{"values", Values}}}}}}}}};
}

/// saxpy, N = 2^24: 65536 blocks of 256 threads, 16 registers.
inline const RecordedRun Saxpy = {0.0614, 3341,     32.9,   69.5, 74.4, 0,
                                  0,      16777216, 6.84e7, 0,    33.3};
/// sgemm 4096^3, 16x16 blocks: 256 x 256 blocks, 32 registers.
inline const RecordedRun Sgemm = {26.04, 392,           63.2,   94.7, 99.6, 0,
                                  0,     68719476736.0, 6.71e7, 87.5, 95};
/// softmax 4096 x 4096, one thread per row: 32 blocks of 128, 26 registers.
inline const RecordedRun Softmax = {1.509,  181,   1.3,    17.0, 6.2, 3.36e7,
                                    1.68e7, 1.0e8, 6.71e7, 87.5, 50};
/// transpose 8192 x 8192, 32 x 32 blocks: 256 x 256 blocks, 10 registers.
inline const RecordedRun Transpose = {0.966, 580, 10.0,   88.0, 56.5, 0,
                                      0,     0,   2.91e8, 0,    45};

inline ResourceUsage usage(unsigned Registers, unsigned Shared = 0) {
  ResourceUsage U;
  U.Registers = Registers;
  U.SharedBytes = Shared;
  return U;
}

/// Everything but the hints, from a recorded run.
inline ProfileInput input(const RecordedRun &R, uint64_t Blocks,
                          unsigned Threads, unsigned Registers) {
  nlohmann::json Result = h200Result(R);
  ProfileInput In;
  In.Counters = llvm::cantFail(KernelCounters::fromRunnerResult(Result));
  In.Peaks = llvm::cantFail(DevicePeaks::fromRunnerResult(Result));
  In.Usage = usage(Registers);
  In.Geometry = LaunchGeometry{Blocks, Threads, 0};
  return In;
}

} // namespace optiml::test

#endif // OPTIML_UNITTESTS_PROFILE_RECORDEDRUNS_H
