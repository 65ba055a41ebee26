//===- RunStatus.h - How a runner invocation ended --------------*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md): the result's "status".
// The runner maps each to its exit code; the tool maps each to what the
// search does with a candidate.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_RUNSTATUS_H
#define OPTIML_PROTOCOL_RUNSTATUS_H

#include "optiml/Protocol/NamedEnum.h"

namespace optiml::protocol {

enum class RunStatus {
  Ok,           ///< Verified (and timed, when asked).
  VerifyFailed, ///< The candidate (or the reference) computed wrong outputs.
  Fault,        ///< A kernel hit a sticky device error; the context is dead.
  LaunchError,  ///< A launch was rejected (bad geometry, missing image...).
  LoadError,    ///< A shared object could not be loaded or lacks the ABI.
  BadPlan,      ///< The plan is malformed or inconsistent.
  NoGpu,        ///< No usable CUDA device.
  Error,        ///< Runner-side failure (out of memory, CUPTI failure...).
  Incomplete,   ///< Only in files written before the run ended (killed).
};

inline constexpr RunStatus AllRunStatuses[] = {
    RunStatus::Ok,          RunStatus::VerifyFailed, RunStatus::Fault,
    RunStatus::LaunchError, RunStatus::LoadError,    RunStatus::BadPlan,
    RunStatus::NoGpu,       RunStatus::Error,        RunStatus::Incomplete};

/// "ok", "verify_failed", ...
inline const char *statusName(RunStatus S) {
  static constexpr const char *Names[] = {
      "ok",       "verify_failed", "fault", "launch_error", "load_error",
      "bad_plan", "no_gpu",        "error", "incomplete"};
  return Names[static_cast<int>(S)];
}

inline std::optional<RunStatus> parseRunStatus(std::string_view Name) {
  return parseNamed(Name, AllRunStatuses, statusName);
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_RUNSTATUS_H
