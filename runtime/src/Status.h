//===- Status.h - Runner outcomes, exit codes, Error value -*- C++ -*-===//
//
// Part of OptiML. The runner reports every failure as a value: a Status that
// ends up in the result JSON and in the process exit code. Nothing in the
// runner throws across files; functions return an Error.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_STATUS_H
#define OPTIML_RUNTIME_STATUS_H

#include "optiml/Protocol/RunStatus.h"

#include <string>

namespace optiml {

/// The overall outcome of a runner invocation, as written to "status"
/// (statusName gives the spelling).
using Status = protocol::RunStatus;
using protocol::statusName;

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
