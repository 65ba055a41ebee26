//===- RunPlan.h - what the GPU runner is asked to do ---------*- C++ -*-===//
//
// The runner sees numbers only: the plan is a kernel spec instantiated for
// each problem instance, the two libraries to compare, and the measurement
// settings (docs/Runner.md has the schema).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_RUNPLAN_H
#define OPTIML_EVAL_RUNPLAN_H

#include "optiml/Spec/KernelSpec.h"

#include <nlohmann/json.hpp>

namespace optiml {

struct MeasureOptions {
  bool Metrics = false; ///< Hardware counters in a separate pass.
  bool Energy = false;  ///< NVML energy per launch, when available.
  unsigned Warmup = 3;
  unsigned MinReps = 10;
  unsigned MaxReps = 500;
  double NoiseTarget = 0.01; ///< Relative spread of the median to reach.
  double MaxSeconds = 10;    ///< Time cap for the timing loop.
  bool FlushL2 = true;
  /// Where to keep a copy of the plan (with its library paths), so the
  /// runner can be rerun by hand or under a profiler; empty: nowhere.
  std::string SavePlanPath;
};

/// The plan for comparing \p Candidate against \p Reference (libraries);
/// an empty \p Candidate compares the reference with itself.
/// \p CandidateInstances, when given, are the candidate's own instances
/// (same order): where their launch geometry differs from the reference's,
/// the candidate is launched with its own.
nlohmann::json
makeRunPlan(const KernelSpec &Spec,
            const std::vector<ConcreteInstance> &Instances,
            llvm::StringRef Reference, llvm::StringRef Candidate,
            const MeasureOptions &Options,
            const std::vector<ConcreteInstance> *CandidateInstances = nullptr);

} // namespace optiml

#endif // OPTIML_EVAL_RUNPLAN_H
