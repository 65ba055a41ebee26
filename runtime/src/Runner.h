//===- Runner.h - One run of a plan, phase by phase -------------*- C++ -*-===//
//
// Part of OptiML. The phases, in order: load the two libraries, find the GPU,
// verify (always), time (instances with "time": true), energy and metrics
// (when asked). Each phase fills its part of the result; the first failure
// that ends the run decides the status. What outlives the plan (device,
// stream, reference, its kept outputs) is the Session's.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_RUNNER_H
#define OPTIML_RUNTIME_RUNNER_H

#include "Failure.h"
#include "KernelLibrary.h"
#include "Plan.h"
#include "Progress.h"
#include "Result.h"
#include "Session.h"

#include <functional>
#include <memory>

namespace optiml {

class Runner {
public:
  Runner(const Plan &P, ResultWriter &Result, Session &S);
  Runner(const Runner &) = delete;
  Runner &operator=(const Runner &) = delete;

  /// Runs every phase the plan asks for. Returns the final status; \p Message
  /// explains anything but Ok.
  Status run(std::string &Message);

private:
  Error loadLibraries();
  Error setUpDevice();
  Error verify(bool &Passed);
  Error time();
  Error energy();
  Error metrics();
  /// Runs \p Body and records its seconds under \p Name in "stages".
  Error stage(const char *Name, const std::function<Error()> &Body);
  /// False (with a log line) when the plan skips counters for a candidate
  /// this slow.
  bool metricsWanted();
  ProgressFn progress();

  /// The candidate, or the reference when the plan has none.
  const KernelLibrary &candidate() const { return Cand ? *Cand : *Ref; }

  const Plan &P;
  ResultWriter &Result;
  Session &Shared;
  const KernelLibrary *Ref = nullptr;
  std::unique_ptr<KernelLibrary> Cand;
  const DeviceInfo *Device = nullptr;
  cudaStream_t Stream = nullptr;
  L2Flusher *Flusher = nullptr;
  FailureLog Failures;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_RUNNER_H
