//===- RecordedRuns.h - the examples on an H200 -----------------*- C++ -*-===//
//
// Counter sets in the runner's result (Protocol/RunResult.h), built from the
// self-evaluation of the examples on an H200 (time, DRAM GB/s, SM%, Mem%,
// achieved occupancy); bytes are GB/s x time, FLOPs the kernels' counts,
// hit rates typical of each access pattern.
//
// The access counters (AccessRun) and the runs declared with them were
// recorded by the runner's metrics pass on an H200 (sm_90, -O3) with
// hand-written launchers: examples/transpose.cu as is, staged through a
// 32 x 32 and a padded 32 x 33 tile; a float4 copy; examples/block_sum.cu
// with its tree and with the tree finished by shuffles (as warp-reduce
// writes it); lanes branching on threadIdx.x & 1; blocks of 48 threads.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_UNITTESTS_PROFILE_RECORDEDRUNS_H
#define OPTIML_UNITTESTS_PROFILE_RECORDEDRUNS_H

#include "optiml/Profile/ProfileInput.h"
#include "optiml/Protocol/RunResult.h"

namespace optiml::test {

struct RecordedRun {
  double TimeMs, DramGBs, SmPct, MemPct, OccPct;
  double FAdd, FMul, FFma;
  double WriteBytes; ///< The rest of the DRAM traffic is reads.
  double L1Hit, L2Hit;
};

/// Coalescing, bank-conflict and divergence counters as the runner reports
/// them; a negative value was not collected and stays out of the result.
struct AccessRun {
  double LdSectors, LdRequests, StSectors, StRequests;
  double ShLdWavefronts, ShStWavefronts, ShLdInsts, ShStInsts;
  double ShLdConflicts, ShStConflicts;
  double ThreadInsts, ThreadInstsPredOn, WarpInsts;
  double BranchUniformPct;
};

inline void addAccessCounters(std::map<std::string, double> &Values,
                              const AccessRun &A) {
  const std::pair<const char *, double> All[] = {
      {metric::GlobalLoadSectors, A.LdSectors},
      {metric::GlobalLoadRequests, A.LdRequests},
      {metric::GlobalStoreSectors, A.StSectors},
      {metric::GlobalStoreRequests, A.StRequests},
      {metric::SharedLoadWavefronts, A.ShLdWavefronts},
      {metric::SharedStoreWavefronts, A.ShStWavefronts},
      {metric::SharedLoadInsts, A.ShLdInsts},
      {metric::SharedStoreInsts, A.ShStInsts},
      {metric::SharedLoadBankConflicts, A.ShLdConflicts},
      {metric::SharedStoreBankConflicts, A.ShStConflicts},
      {metric::ThreadInsts, A.ThreadInsts},
      {metric::ThreadInstsPredOn, A.ThreadInstsPredOn},
      {metric::WarpInsts, A.WarpInsts},
      {metric::BranchUniformity, A.BranchUniformPct}};
  for (const auto &[Name, Value] : All)
    if (Value >= 0)
      Values[Name] = Value;
}

/// A runner result with device peaks of an H200 and \p R's counters (and
/// \p A's, when given) as both sides' metrics of instance 0.
inline protocol::RunResult h200Result(const RecordedRun &R,
                                      const AccessRun *A = nullptr) {
  double Bytes = R.DramGBs * 1e9 * R.TimeMs * 1e-3;
  std::map<std::string, double> Values = {
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
  if (A)
    addAccessCounters(Values, *A);
  protocol::RunResult Result;
  Result.Status = protocol::RunStatus::Ok;
  Result.Device.emplace();
  Result.Device->Name = "NVIDIA H200";
  Result.Device->ComputeCapability = "9.0";
  Result.Device->Sms = 132;
  Result.Device->Peaks.DramBytesPerS = 4.8e12;
  Result.Device->Peaks.Fp32FlopsPerS = 6.7e13;
  protocol::InstanceMetrics Large;
  Large.Instance = "large";
  Large.Reference = protocol::SideMetrics{std::nullopt, Values, 1};
  Large.Candidate = Large.Reference;
  Result.Metrics.emplace();
  Result.Metrics->Instances = {Large};
  return Result;
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

/// Recorded with access counters (see the top of this file).
/// examples/transpose.cu: loads 4 sectors per request, stores 32.1.
inline const AccessRun TransposeAccess = {
    8388608, 2097152, 67328482, 2097152,    0,          0,        0,
    0,       0,       0,        1543503872, 1476395008, 48234496, 0};
/// Staged through float t[32][32]: column reads are 32-way conflicts.
inline const RecordedRun TransposeStagedUnpadded = {
    0.5284, 1021, 24.5, 57.1, 92.2, 0, 0, 0, 2.713e8, 0, 49.1};
inline const AccessRun TransposeStagedUnpaddedAccess = {
    8388608, 2097152,  8388608, 2097152,    67421194, 2324011,  2097152,
    2097152, 65324042, 226859,  2550136832, -1,       79691776, 0};
/// Staged through float t[32][33]: coalesced, almost no conflicts.
inline const RecordedRun TransposeStaged = {
    0.3023, 1785, 43.4, 37.1, 87.9, 0, 0, 0, 2.711e8, 0, 49.1};
inline const AccessRun TransposeStagedAccess = {
    8388608, 2097152, 8388608, 2097152,    2191580, 2264569,  2097152,
    2097152, 94428,   167417,  2550136832, -1,      79691776, 0};
/// out[i] = in[i] in float4s, 2^24 of them in blocks of 256: coalesced
/// 16-byte accesses move 16 sectors per request.
inline const RecordedRun Copy4 = {0.1258, 4248, 16.3,   88.3, 77.7, 0,
                                  0,      0,    2.66e8, 0,    50.0};
inline const AccessRun Copy4Access = {8388608,   524288, 8388608, 524288, 0,
                                      0,         0,      0,       0,      0,
                                      268435456, -1,     8388608, 0};
/// examples/block_sum.cu, N = 2^24: the tree's `if (tid < stride)` is
/// predicated, so lanes are active (31.7) but 20.4 do work.
inline const RecordedRun BlockSumTree = {
    0.0802, 1138, 71.1, 77.4, 84.4, 1.671e7, 0, 0, 2.414e7, 0.1, 4.2};
inline const AccessRun BlockSumTreeAccess = {
    2097152, 524288, 65632, 65536,      1678519,    1355198,  8454144,
    4718592, 40119,  44478, 1745354752, 1124204544, 55050240, 100};
/// The same finished with shuffles below stride 64.
inline const RecordedRun BlockSumWarp = {
    0.0634, 1443, 57.6, 39.3, 79.7, 2.517e7, 0, 0, 2.432e7, 0.2, 4.1};
inline const AccessRun BlockSumWarpAccess = {
    2097152, 524288, 65689, 65536,     1015532,   1039105,  2293760,
    1638400, 32492,  56065, 864550912, 715849728, 27525120, 100};
/// Odd and even lanes run different 64-step loops; 2^24 threads in blocks
/// of 256.
inline const RecordedRun Diverge = {0.0980, 1401,    80.8,    29.1, 82.4, 0,
                                    0,      1.074e9, 7.012e7, 0,    50.1};
inline const AccessRun DivergeAccess = {
    2097152, 524288, 2097152, 524288,     0,          0,        0,
    0,       0,      0,       1484783616, 1459617792, 81264640, 50};
/// out[i] = 2 in[i], 2^24 threads in blocks of 48.
inline const RecordedRun Scale48 = {0.2121, 654, 12.6,    13.6, 25.4, 1.678e7,
                                    0,      0,   7.149e7, 8.1,  50.0};
inline const AccessRun Scale48Access = {
    2097152, 699051, 2098426, 699051,    0,         0,        0,
    0,       0,      0,       285212928, 268435712, 11883875, 0};

inline ResourceUsage usage(unsigned Registers, unsigned Shared = 0) {
  ResourceUsage U;
  U.Registers = Registers;
  U.SharedBytes = Shared;
  return U;
}

/// Everything but the hints, from a recorded run.
inline ProfileInput input(const RecordedRun &R, uint64_t Blocks,
                          unsigned Threads, unsigned Registers,
                          const AccessRun *A = nullptr) {
  protocol::RunResult Result = h200Result(R, A);
  ProfileInput In;
  In.Counters = llvm::cantFail(KernelCounters::fromRunnerResult(Result));
  In.Peaks = llvm::cantFail(DevicePeaks::fromRunnerResult(Result));
  In.Usage = usage(Registers);
  In.Geometry = LaunchGeometry{Blocks, Threads, 0};
  return In;
}

} // namespace optiml::test

#endif // OPTIML_UNITTESTS_PROFILE_RECORDEDRUNS_H
