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
  /// The 95% confidence interval of the paired ratios' median.
  std::optional<double> SpeedupLow, SpeedupHigh;
  double Threshold = 0;
  bool Significant = false;
  /// converged (the ratio's interval is tight), screened (too slow to be
  /// the best, see TimingOptions::ScreenBelow), max_reps, max_seconds.
  std::string StopReason;
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

/// The keys of a TimeSummary, in the order they are written.
inline constexpr auto keysOf(const TimeSummary &) {
  return std::make_tuple(
      key("median_ns", &TimeSummary::MedianNs),
      key("min_ns", &TimeSummary::MinNs), key("p25_ns", &TimeSummary::P25Ns),
      key("p75_ns", &TimeSummary::P75Ns), key("spread", &TimeSummary::Spread),
      key("iqr_rel", &TimeSummary::IqrRel), key("reps", &TimeSummary::Reps));
}

/// The keys of a InstanceTiming, in the order they are written.
inline constexpr auto keysOf(const InstanceTiming &) {
  return std::make_tuple(
      key("instance", &InstanceTiming::Instance),
      key("reference", &InstanceTiming::Reference),
      key("candidate", &InstanceTiming::Candidate),
      key("speedup", &InstanceTiming::Speedup),
      key("noise", &InstanceTiming::Noise),
      key("speedup_low", &InstanceTiming::SpeedupLow),
      key("speedup_high", &InstanceTiming::SpeedupHigh),
      key("threshold", &InstanceTiming::Threshold),
      key("significant", &InstanceTiming::Significant),
      key("stop_reason", &InstanceTiming::StopReason),
      key("elapsed_s", &InstanceTiming::ElapsedS),
      key("flush_l2", &InstanceTiming::FlushL2),
      key("l2_flush_bytes", &InstanceTiming::L2FlushBytes),
      key("discarded_batches", &InstanceTiming::DiscardedBatches),
      key("lost_records", &InstanceTiming::LostRecords));
}

inline void to_json(Json &J, const TimingReport &R) {
  J = R.Instances.empty() ? Json::object() : Json(R.Instances.front());
  J["instances"] = R.Instances;
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
