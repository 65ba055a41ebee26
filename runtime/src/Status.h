//===- Status.h - Runner outcomes, exit codes, Error value -*- C++ -*-===//
//
// Part of OptiML. The runner reports every failure as a value: a Status that
// ends up in the result JSON and in the process exit code. Nothing in the
// runner throws across files; functions return an Error.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_STATUS_H
#define OPTIML_RUNTIME_STATUS_H

#include <string>

namespace optiml {

/// The overall outcome of a runner invocation, as written to "status".
enum class Status {
  Ok,           ///< Verified (and timed, when asked).
  VerifyFailed, ///< The candidate (or the reference) computed wrong outputs.
  Fault,        ///< A kernel hit a sticky device error; the context is dead.
  LaunchError,  ///< A launch was rejected (bad geometry, missing image...).
  LoadError,    ///< A shared object could not be loaded or lacks the ABI.
  BadPlan,      ///< The plan JSON is malformed or inconsistent.
  NoGpu,        ///< No usable CUDA device.
  Error,        ///< Runner-side failure (out of memory, CUPTI failure...).
  Incomplete,   ///< Only in files written before the run ended (killed).
};

/// The JSON spelling of \p S ("ok", "verify_failed", ...).
const char *statusName(Status S);

/// The documented process exit code for \p S (see docs/Runner.md).
int exitCode(Status S);

/// A failure value, in the spirit of llvm::Error but without its checking
/// machinery: converting to bool answers "did it fail?".
class [[nodiscard]] Error {
public:
  Error(Status S, std::string Message) : S(S), Message(std::move(Message)) {}

  static Error success() { return Error(); }

  explicit operator bool() const { return S != Status::Ok; }
  Status status() const { return S; }
  const std::string &message() const { return Message; }

  /// Prefixes the message with \p Context ("verify small/seed 1: ...").
  Error withContext(const std::string &Context) const {
    return Error(S, Context + ": " + Message);
  }

private:
  Error() = default;

  Status S = Status::Ok;
  std::string Message;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_STATUS_H
