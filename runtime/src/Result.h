//===- Result.h - The result file, written at every step --------*- C++ -*-===//
//
// Part of OptiML. The parent process kills a runner that hangs, so the
// result file is rewritten (atomically: temporary file + rename) whenever the
// run advances. A file whose status is still "incomplete" tells the parent
// how far a killed run got ("phase").
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_RESULT_H
#define OPTIML_RUNTIME_RESULT_H

#include "Status.h"

#include "optiml/Protocol/RunResult.h"

#include <string>

namespace optiml {

class ResultWriter {
public:
  /// An empty \p Path writes nothing (used before arguments are parsed).
  explicit ResultWriter(std::string Path);

  /// The result so far; each phase fills its part, write() saves it.
  protocol::RunResult &result() { return Result; }

  /// Records the step about to start, prints it to stderr, rewrites the file.
  void phase(const std::string &Phase);

  /// Adds a line to "log" and prints it to stderr.
  void log(const std::string &Line);

  /// Sets the final status and "error" (null when \p Message is empty),
  /// marks the phase "done" and writes.
  void finish(Status S, const std::string &Message);

  /// Writes the current state; false (with a message on stderr) on failure.
  bool write();

private:
  std::string Path;
  protocol::RunResult Result;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_RESULT_H
