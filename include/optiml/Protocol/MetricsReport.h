//===- MetricsReport.h - Hardware counters of the profiling pass *- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md, "Metrics"): the result's
// "metrics", a flat map of CUPTI metric names to numbers per instance and
// side. A profiler that could not run leaves its message in "error" and
// does not fail the run.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_METRICSREPORT_H
#define OPTIML_PROTOCOL_METRICSREPORT_H

#include "optiml/Protocol/JsonFields.h"
#include "optiml/Protocol/Side.h"

namespace optiml::protocol {

struct SideMetrics {
  /// Why the SASS-based metrics were dropped and the rest retried.
  std::optional<std::string> SassMetricsDropped;
  std::map<std::string, double> Values;
  uint64_t Passes = 0; ///< Kernel replays the profiler needed.
};

/// A side is absent when profiling ended (an error) before it was done.
struct InstanceMetrics {
  std::string Instance;
  std::optional<SideMetrics> Reference;
  std::optional<SideMetrics> Candidate;

  const std::optional<SideMetrics> &of(Side S) const {
    return S == Side::Reference ? Reference : Candidate;
  }
};

struct MetricsReport {
  std::optional<std::string> Error; ///< The profiler's failure, if any.
  std::string Api;
  /// Absent when the profiler could not even start.
  std::optional<std::string> Chip;
  std::optional<std::vector<std::string>> Unsupported;
  std::optional<std::vector<InstanceMetrics>> Instances;
};

inline void to_json(Json &J, const SideMetrics &S) {
  J = Json::object();
  if (S.SassMetricsDropped)
    J["sass_metrics_dropped"] = *S.SassMetricsDropped;
  Json Values = Json::object();
  for (const auto &[Name, Value] : S.Values)
    Values[Name] = number(Value);
  J["values"] = std::move(Values);
  J["passes"] = S.Passes;
}

/// The keys of a InstanceMetrics, in the order they are written.
inline constexpr auto keysOf(const InstanceMetrics &) {
  return std::make_tuple(key("instance", &InstanceMetrics::Instance),
                         key("reference", &InstanceMetrics::Reference),
                         key("candidate", &InstanceMetrics::Candidate));
}

inline void to_json(Json &J, const MetricsReport &M) {
  J = Json{{"error", orNull(M.Error)}, {"api", M.Api}};
  if (M.Chip)
    J["chip"] = *M.Chip;
  if (M.Unsupported)
    J["unsupported"] = *M.Unsupported;
  if (M.Instances)
    J["instances"] = *M.Instances;
}

inline void read(const Json &V, SideMetrics &S) {
  expectObject(V);
  field(V, "sass_metrics_dropped", S.SassMetricsDropped);
  field(V, "values", S.Values);
  field(V, "passes", S.Passes);
}

inline void read(const Json &V, MetricsReport &M) {
  expectObject(V);
  field(V, "error", M.Error);
  field(V, "api", M.Api);
  field(V, "chip", M.Chip);
  field(V, "unsupported", M.Unsupported);
  field(V, "instances", M.Instances);
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_METRICSREPORT_H
