//===- TimingReport.h - The side-by-side timing -----------------*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md, "Timing"): the result's
// "timing". Every timed instance is listed under "instances"; the first one's
// fields are repeated at the top level, where the common single-instance
// reader looks (timing.speedup).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_TIMINGREPORT_H
#define OPTIML_PROTOCOL_TIMINGREPORT_H

#include "optiml/Protocol/JsonFields.h"
#include "optiml/Protocol/Side.h"

namespace optiml::protocol {

/// Order statistics of one side's kernel durations. "spread" is the
/// relative half-width of the median's 95% confidence interval; "iqr_rel"
/// the interquartile range over the median (how much single runs vary).
struct TimeSummary {
  double MedianNs = 0;
  double MinNs = 0;
  double P25Ns = 0;
  double P75Ns = 0;
  double Spread = 1;
  double IqrRel = 0;
  uint64_t Reps = 0;
};

struct InstanceTiming {
  std::string Instance;
  TimeSummary Reference;
  TimeSummary Candidate;
  double Speedup = 0; ///< Reference median over candidate median.
  double Noise = 0;   ///< Spread of the paired ratios.
  double Threshold = 0;
  bool Significant = false;
  std::string StopReason; ///< converged, max_reps, max_seconds
  double ElapsedS = 0;
  bool FlushL2 = false;
  uint64_t L2FlushBytes = 0;
  uint64_t DiscardedBatches = 0;
  uint64_t LostRecords = 0;

  const TimeSummary &of(Side S) const {
    return S == Side::Reference ? Reference : Candidate;
  }
};

struct TimingReport {
  std::vector<InstanceTiming> Instances; ///< Never empty.
};

inline void to_json(Json &J, const TimeSummary &S) {
  J = Json{{"median_ns", number(S.MedianNs)},
           {"min_ns", number(S.MinNs)},
           {"p25_ns", number(S.P25Ns)},
           {"p75_ns", number(S.P75Ns)},
           {"spread", number(S.Spread)},
           {"iqr_rel", number(S.IqrRel)},
           {"reps", S.Reps}};
}

inline void to_json(Json &J, const InstanceTiming &T) {
  J = Json{{"instance", T.Instance},
           {"reference", T.Reference},
           {"candidate", T.Candidate},
           {"speedup", number(T.Speedup)},
           {"noise", number(T.Noise)},
           {"threshold", number(T.Threshold)},
           {"significant", T.Significant},
           {"stop_reason", T.StopReason},
           {"elapsed_s", number(T.ElapsedS)},
           {"flush_l2", T.FlushL2},
           {"l2_flush_bytes", T.L2FlushBytes},
           {"discarded_batches", T.DiscardedBatches},
           {"lost_records", T.LostRecords}};
}

inline void to_json(Json &J, const TimingReport &R) {
  J = R.Instances.empty() ? Json::object() : Json(R.Instances.front());
  J["instances"] = R.Instances;
}

inline void read(const Json &V, TimeSummary &S) {
  expectObject(V);
  field(V, "median_ns", S.MedianNs);
  field(V, "min_ns", S.MinNs);
  field(V, "p25_ns", S.P25Ns);
  field(V, "p75_ns", S.P75Ns);
  field(V, "spread", S.Spread);
  field(V, "iqr_rel", S.IqrRel);
  field(V, "reps", S.Reps);
}

inline void read(const Json &V, InstanceTiming &T) {
  expectObject(V);
  field(V, "instance", T.Instance);
  field(V, "reference", T.Reference);
  field(V, "candidate", T.Candidate);
  field(V, "speedup", T.Speedup);
  field(V, "noise", T.Noise);
  field(V, "threshold", T.Threshold);
  field(V, "significant", T.Significant);
  field(V, "stop_reason", T.StopReason);
  field(V, "elapsed_s", T.ElapsedS);
  field(V, "flush_l2", T.FlushL2);
  field(V, "l2_flush_bytes", T.L2FlushBytes);
  field(V, "discarded_batches", T.DiscardedBatches);
  field(V, "lost_records", T.LostRecords);
}

/// Reads "instances"; the top-level copy of the first is not read again.
inline void read(const Json &V, TimingReport &R) {
  expectObject(V);
  field(V, "instances", R.Instances);
  if (R.Instances.empty())
    fail("instances", "expected a non-empty array");
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_TIMINGREPORT_H
