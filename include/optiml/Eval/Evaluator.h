//===- Evaluator.h - build, verify and time one candidate -----*- C++ -*-===//
//
// One evaluation: the reference and the candidate are built (in parallel,
// cached), the spec is instantiated into a run plan, and the runner verifies
// the candidate against the reference and times both side by side. Every
// outcome, a failed build included, is a result, not an error.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_EVALUATOR_H
#define OPTIML_EVAL_EVALUATOR_H

#include "optiml/Eval/Builder.h"
#include "optiml/Eval/RunPlan.h"
#include "optiml/Eval/Runner.h"

namespace optiml {

struct Evaluation {
  BuildResult Reference;
  BuildResult Candidate; ///< The reference's build when comparing it to itself.
  /// The run, its result decoded once; status "build_failed" when a side
  /// did not build, "built" when no runner was asked for.
  RunOutcome Run;

  const std::string &status() const { return Run.Status; }
  bool accepted() const { return Run.accepted(); }
  /// The side that did not build, when one did not.
  const BuildResult *failedBuild() const;
};

class Evaluator {
public:
  Evaluator(const Builder &B, MeasureOptions Options, unsigned TimeoutSeconds)
      : B(B), Options(Options), TimeoutSeconds(TimeoutSeconds) {}

  /// Where each stage is announced (the builds, the run and how long it
  /// took), so that a long --evaluate is not a silence; null: nowhere.
  void setLog(llvm::raw_ostream *L) { Log = L; }

  /// Builds both sides; stops after the builds when \p R is null.
  /// \p CandidateSpec, when given, is the candidate's own spec (its mark):
  /// a rewrite that changed the launch geometry also rewrote it, and the
  /// candidate is launched as it says.
  llvm::Expected<Evaluation>
  evaluate(const KernelSource &Reference, const KernelSource *Candidate,
           const KernelInfo &Kernel, const KernelSpec &Spec, const Runner *R,
           const KernelSpec *CandidateSpec = nullptr) const;

private:
  const Builder &B;
  MeasureOptions Options;
  unsigned TimeoutSeconds;
  llvm::raw_ostream *Log = nullptr;
};

nlohmann::json toJSON(const BuildResult &Build);
nlohmann::json toJSON(const Evaluation &E);

} // namespace optiml

#endif // OPTIML_EVAL_EVALUATOR_H
