//===- RunOutcome.h - how one runner invocation ended ---------*- C++ -*-===//
//
// The runner's result, decoded once (Protocol/RunResult.h), with what the
// tool saw of the process: a runner killed at its time limit or by a signal
// still leaves the result it last wrote, which says how far it got.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_RUNOUTCOME_H
#define OPTIML_EVAL_RUNOUTCOME_H

#include "optiml/Protocol/RunResult.h"

#include <optional>
#include <string>

namespace optiml {

struct RunOutcome {
  /// The runner's status ("ok", "verify_failed", ...; docs/Runner.md), or
  /// the tool's when the runner could not give one: "timeout" (killed at
  /// the time limit), "crash" (a signal), "runner_error" (no usable
  /// result). The Evaluator adds "build_failed" and "built" (not run).
  std::string Status = "unknown";
  /// What ended the run (the runner's "error", or why it died); empty when
  /// nothing went wrong.
  std::string Error;
  /// The runner's result, when it wrote one that decodes.
  std::optional<protocol::RunResult> Result;
  /// The runner's stderr (its progress lines), the last 8000 bytes.
  std::string Log;

  /// Verified and timed as asked: the runner says ok and verification
  /// passed.
  bool accepted() const {
    return Status == "ok" && Result && Result->verified();
  }
};

} // namespace optiml

#endif // OPTIML_EVAL_RUNOUTCOME_H
