//===- RunPlan.h - what the GPU runner is asked to do ---------*- C++ -*-===//
//
// The runner sees numbers only: the plan is a kernel spec instantiated for
// each problem instance, the two libraries to compare, and the measurement
// settings. Its types are the runner protocol's (Protocol/RunPlan.h,
// docs/Runner.md), shared with the runner.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_RUNPLAN_H
#define OPTIML_EVAL_RUNPLAN_H

#include "optiml/Protocol/RunPlan.h"
#include "optiml/Spec/KernelSpec.h"

#include "llvm/Support/Error.h"

namespace optiml {

/// How to measure: the plan's timing options (same defaults as the runner)
/// and what else to collect.
struct MeasureOptions : protocol::TimingOptions {
  bool Metrics = false; ///< Hardware counters in a separate pass.
  /// The plan's metrics_min_speedup: no counters below it; 0: always.
  double MetricsMinSpeedup = 0;
  bool Energy = false;  ///< NVML energy per launch, when available.
  /// Where to keep a copy of the plan (with its library paths), so the
  /// runner can be rerun by hand or under a profiler; empty: nowhere.
  std::string SavePlanPath;
};

/// How much a candidate that cannot be the best is spared. A candidate
/// whose speedup is below Fraction of the best so far, even at the top of
/// its confidence interval, stops being timed after the first batch of
/// pairs; one below it gets no counters (the search reads counters where it
/// expands a state, and it rarely expands a slow one). Off: every candidate
/// is timed to convergence and profiled (--measure=full).
struct Screening {
  bool Enabled = true;
  double Fraction = 0.9;
};

/// The plan for comparing \p Candidate against \p Reference (libraries);
/// an empty \p Candidate compares the reference with itself.
/// \p CandidateInstances, when given, are the candidate's own instances
/// (same order): where their launch geometry differs from the reference's,
/// the candidate is launched with its own. An error (BadInput) when a
/// number does not fit the plan (shared memory beyond 32 bits).
llvm::Expected<protocol::RunPlan>
makeRunPlan(const KernelSpec &Spec,
            const std::vector<ConcreteInstance> &Instances,
            llvm::StringRef Reference, llvm::StringRef Candidate,
            const MeasureOptions &Options,
            const std::vector<ConcreteInstance> *CandidateInstances = nullptr);

} // namespace optiml

#endif // OPTIML_EVAL_RUNPLAN_H
