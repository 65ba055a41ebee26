//===- RunResult.h - What the runner found ----------------------*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md, "The result"). The
// runner fills this as it goes and rewrites the file at every step, so a
// runner killed by the tool's timeout still says how far it got ("phase").
// The tool decodes the file once, checking the schema version, and reads
// fields, never JSON keys. A part not reached or not asked for is null.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_RUNRESULT_H
#define OPTIML_PROTOCOL_RUNRESULT_H

#include "optiml/Protocol/DeviceReport.h"
#include "optiml/Protocol/EnergyReport.h"
#include "optiml/Protocol/KernelAttributes.h"
#include "optiml/Protocol/MetricsReport.h"
#include "optiml/Protocol/RunStatus.h"
#include "optiml/Protocol/SchemaVersion.h"
#include "optiml/Protocol/TimingReport.h"
#include "optiml/Protocol/VerifyReport.h"

namespace optiml::protocol {

/// A loaded library and the kernel name it reported.
struct LibraryInfo {
  std::string Path;
  std::string Kernel;
  /// Absent when the driver would not say (the run goes on without).
  std::optional<KernelAttributes> Attributes;
};

struct LibrariesReport {
  LibraryInfo Reference;
  LibraryInfo Candidate; ///< The reference again when run against itself.
};

struct RunResult {
  RunStatus Status = RunStatus::Incomplete;
  std::optional<std::string> Error; ///< What ended the run; none when ok.
  std::string Phase = "start";      ///< "done" once the run finished.
  std::optional<LibrariesReport> Libraries;
  std::optional<DeviceReport> Device;
  std::optional<VerifyReport> Verify;
  std::optional<TimingReport> Timing;
  std::optional<MetricsReport> Metrics;
  std::optional<EnergyReport> Energy;
  std::vector<std::string> Log; ///< Notes that are not failures.
  /// Seconds per stage of the run (load, device, verify, time, energy,
  /// metrics), for the throughput report; a stage not run is absent, and
  /// so is the key when none ran.
  std::map<std::string, double> Stages;

  /// Verified: the status is ok and verification passed.
  bool verified() const {
    return Status == RunStatus::Ok && Verify && Verify->Passed;
  }
  /// The first timed instance, when any was timed.
  const InstanceTiming *firstTiming() const {
    return Timing && !Timing->Instances.empty() ? &Timing->Instances.front()
                                                : nullptr;
  }
};

/// The keys of a LibraryInfo, in the order they are written.
inline constexpr auto keysOf(const LibraryInfo &) {
  return std::make_tuple(key("path", &LibraryInfo::Path),
                         key("kernel", &LibraryInfo::Kernel),
                         key("attributes", &LibraryInfo::Attributes));
}

/// The keys of a LibrariesReport, in the order they are written.
inline constexpr auto keysOf(const LibrariesReport &) {
  return std::make_tuple(key("reference", &LibrariesReport::Reference),
                         key("candidate", &LibrariesReport::Candidate));
}

inline void to_json(Json &J, const RunResult &R) {
  J = Json{{SchemaVersionKey, SchemaVersion},
           {"status", statusName(R.Status)},
           {"error", orNull(R.Error)},
           {"phase", R.Phase},
           {"libraries", orNull(R.Libraries)},
           {"device", orNull(R.Device)},
           {"verify", orNull(R.Verify)},
           {"timing", orNull(R.Timing)},
           {"metrics", orNull(R.Metrics)},
           {"energy", orNull(R.Energy)},
           {"log", R.Log}};
  if (!R.Stages.empty())
    J["stages"] = R.Stages;
}

inline void read(const Json &V, RunResult &R) {
  if (!V.is_object())
    fail("result", "expected an object");
  checkSchemaVersion(V, "result");
  std::string Status;
  field(V, "status", Status);
  auto S = parseRunStatus(Status);
  if (!S)
    fail("status", "unknown status '" + Status + "'");
  R.Status = *S;
  field(V, "error", R.Error);
  field(V, "phase", R.Phase);
  field(V, "libraries", R.Libraries);
  field(V, "device", R.Device);
  field(V, "verify", R.Verify);
  field(V, "timing", R.Timing);
  field(V, "metrics", R.Metrics);
  field(V, "energy", R.Energy);
  field(V, "log", R.Log);
  fieldOr(V, "stages", R.Stages);
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_RUNRESULT_H
