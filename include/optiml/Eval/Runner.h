//===- Runner.h - the GPU runner as a child process -----------*- C++ -*-===//
//
// The runner (runtime/, CUDA + CUPTI) is built with CMake and nvcc on the
// machine that has the GPU, at first use, and cached per source hash and
// architecture. Every evaluation runs it as a child process with a time
// limit, so a candidate that hangs, faults or corrupts memory ends as a
// failed result while the tool carries on: a fresh process per plan, or,
// for a search, one worker process that serves plan after plan
// (persistent(), RunnerWorker.h).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_RUNNER_H
#define OPTIML_EVAL_RUNNER_H

#include "optiml/Eval/RunOutcome.h"
#include "optiml/Eval/RunnerWorker.h"
#include "optiml/Protocol/RunPlan.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <string>

namespace optiml {

class Runner {
public:
  /// Finds the runtime sources ($OPTIML_RUNTIME_DIR, <bin>/../runtime as in
  /// the GPU bundle, or the source tree the tool was built from) with the
  /// protocol headers beside them (<runtime>/../include) and builds the
  /// runner for \p Arch unless the cache has it; a build (about a minute)
  /// is announced on \p Log, with its progress and time, so that it is no
  /// silence.
  static llvm::Expected<Runner> prepare(const char *Argv0, llvm::StringRef Arch,
                                        llvm::raw_ostream *Log = nullptr);

  /// Runs \p Plan and decodes the runner's result once. A runner that was
  /// killed, crashed or wrote nothing usable is an outcome whose status
  /// says so, not an error. Errors: no GPU (NoGPU), and a result of another
  /// schema version (Internal: the runner was built from other sources).
  /// \p OnPhase, when given, hears each step as the runner starts it
  /// ("verify small seed 1 candidate run 1/2"), while it runs.
  llvm::Expected<RunOutcome>
  run(const protocol::RunPlan &Plan, unsigned TimeoutSeconds,
      const std::function<void(llvm::StringRef Phase)> &OnPhase =
          nullptr) const;

  const std::string &executable() const { return Executable; }

  /// This runner, its runs on the GPU the CUDA runtime numbers \p Ordinal
  /// in this process (CUDA_VISIBLE_DEVICES narrowed to that one GPU for the
  /// child, whose device 0 it becomes).
  Runner onDevice(int Ordinal) const;

  /// This runner, its runs served by one worker process kept between them
  /// (started at the first run; copies share it, one run at a time).
  Runner persistent() const;

  /// The worker's processes started so far; 0 for a runner of a process
  /// per run.
  unsigned workerStarts() const { return Worker ? Worker->starts() : 0; }

  /// CUDA_VISIBLE_DEVICES for a child that is to use this process's GPU
  /// \p Ordinal: the ordinal-th entry of this process's own list when it
  /// has one ("2,3" and 1 give "3"), else the ordinal.
  static std::string visibleDeviceOf(int Ordinal);

  /// The runtime sources: $OPTIML_RUNTIME_DIR, <bin>/../runtime (the GPU
  /// bundle), <bin>/../share/optiml/runtime (an installed prefix), then the
  /// source tree the tool was built from; empty when none has them.
  static std::string findSources(const char *Argv0);

private:
  explicit Runner(std::string Executable) : Executable(std::move(Executable)) {}

  std::string Executable;
  /// CUDA_VISIBLE_DEVICES for the child; empty: this process's own.
  std::string VisibleDevice;
  /// Set by persistent(); null: a new process per run.
  std::shared_ptr<RunnerWorker> Worker;
};

} // namespace optiml

#endif // OPTIML_EVAL_RUNNER_H
