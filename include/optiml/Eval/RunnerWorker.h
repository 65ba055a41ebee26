//===- RunnerWorker.h - one runner process for a whole search --*- C++ -*-===//
//
// A fresh runner per candidate pays, each time, for a process, a CUDA
// context, loading the original and running it on every (instance, seed)
// to have outputs to compare with. A worker is `optiml-runner --serve`
// kept alive between plans (runtime/src/Server.h): the tool appends a plan
// to its requests file and reads its answer from its log.
//
// Isolation stays per process: a candidate that hangs is killed with its
// worker (the time limit is per plan), one that faults or crashes ends its
// worker after its result is written, and the next plan starts a new one.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_RUNNERWORKER_H
#define OPTIML_EVAL_RUNNERWORKER_H

#include "optiml/Support/Subprocess.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/Program.h"

#include <memory>
#include <mutex>
#include <string>

namespace optiml {

class RunnerWorker {
public:
  /// A worker of \p Executable, with CUDA_VISIBLE_DEVICES=\p VisibleDevice
  /// when that is not empty; started at its first plan.
  RunnerWorker(std::string Executable, std::string VisibleDevice);
  RunnerWorker(const RunnerWorker &) = delete;
  RunnerWorker &operator=(const RunnerWorker &) = delete;
  /// Asks the worker to quit, and kills it if it does not within a second.
  ~RunnerWorker();

  /// Runs the plan at \p PlanPath, its result going to \p ResultPath, as a
  /// one-shot runner would: the result has the exit code the plan ended
  /// with, or says the worker timed out (killed) or crashed, with the lines
  /// it wrote for this plan as Output. \p OnLine hears those lines as they
  /// come. Errors: the worker cannot be started.
  llvm::Expected<SubprocessResult> run(llvm::StringRef PlanPath,
                                       llvm::StringRef ResultPath,
                                       unsigned TimeoutSeconds,
                                       const OutputLineFn &OnLine);

  /// Workers started so far (1 when no plan ended one).
  unsigned starts() const { return Starts; }

private:
  struct Process;
  llvm::Error start();
  void stop();
  /// Sends one request and waits for its answer. \p Taken: the worker said
  /// it started on the plan (false when it ended before reading it).
  SubprocessResult exchange(llvm::StringRef PlanPath,
                            llvm::StringRef ResultPath, unsigned TimeoutSeconds,
                            const OutputLineFn &OnLine, bool &Taken);

  std::string Executable;
  std::string VisibleDevice;
  std::unique_ptr<Process> Child;
  unsigned Starts = 0;
  std::mutex Busy; ///< One plan at a time.
};

} // namespace optiml

#endif // OPTIML_EVAL_RUNNERWORKER_H
