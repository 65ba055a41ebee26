//===- Runner.h - the GPU runner as a child process -----------*- C++ -*-===//
//
// The runner (runtime/, CUDA + CUPTI) is built with CMake and nvcc on the
// machine that has the GPU, at first use, and cached per source hash and
// architecture. Every evaluation runs it as a child process with a time
// limit, so a candidate that hangs, faults or corrupts memory ends as a
// failed result while the tool carries on.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_RUNNER_H
#define OPTIML_EVAL_RUNNER_H

#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <string>

namespace optiml {

class Runner {
public:
  /// Finds the runtime sources ($OPTIML_RUNTIME_DIR, <bin>/../runtime as in
  /// the GPU bundle, or the source tree the tool was built from) and builds
  /// the runner for \p Arch unless the cache has it.
  static llvm::Expected<Runner> prepare(const char *Argv0,
                                        llvm::StringRef Arch);

  /// Runs \p Plan. The result is the runner's JSON document; when the runner
  /// could not write one, a document whose "status" says why ("timeout",
  /// "crash", "runner_error") with the log. No GPU is a NoGPU error.
  llvm::Expected<nlohmann::json> run(const nlohmann::json &Plan,
                                     unsigned TimeoutSeconds) const;

  const std::string &executable() const { return Executable; }

private:
  explicit Runner(std::string Executable) : Executable(std::move(Executable)) {}

  std::string Executable;
};

} // namespace optiml

#endif // OPTIML_EVAL_RUNNER_H
