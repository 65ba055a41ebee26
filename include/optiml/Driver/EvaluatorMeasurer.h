//===- EvaluatorMeasurer.h - build, verify and time candidates -*- C++ -*-===//
//
// The Driver's Measurer: a batch is built in parallel (Builder::buildAll
// fills the build cache), then each candidate is evaluated against the
// original one at a time (the Evaluator's builds are cache hits), so the
// GPU times one process at a time and every speedup is over the original,
// measured side by side.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_EVALUATORMEASURER_H
#define OPTIML_DRIVER_EVALUATORMEASURER_H

#include "optiml/Driver/SearchExpander.h"
#include "optiml/Eval/Evaluator.h"
#include "optiml/Search/Measurer.h"

namespace optiml {

class EvaluatorMeasurer : public Measurer {
public:
  /// \p Original, \p Kernel and \p Spec are the input's; \p Options must
  /// ask for metrics so the proposer has counters.
  EvaluatorMeasurer(SearchExpander &E, const Builder &B, const Runner &R,
                    const KernelSource &Original, const KernelInfo &Kernel,
                    const KernelSpec &Spec, MeasureOptions Options,
                    unsigned TimeoutSeconds, unsigned Jobs,
                    Screening Screen = {})
      : E(E), B(B), R(R), Original(Original), Kernel(Kernel), Spec(Spec),
        Options(std::move(Options)), TimeoutSeconds(TimeoutSeconds), Jobs(Jobs),
        Screen(Screen) {}

  Measurement measure(const Candidate &C) override;
  std::vector<Measurement> measureAll(llvm::ArrayRef<Candidate> Batch) override;

private:
  void prebuild(llvm::ArrayRef<Candidate> Batch);
  /// The options for one candidate: the original's are the user's; a
  /// candidate's screen against the best speedup measured so far.
  MeasureOptions optionsFor(bool IsOriginal) const;
  Measurement evaluate(const Candidate &C);

  SearchExpander &E;
  const Builder &B;
  const Runner &R;
  const KernelSource &Original;
  const KernelInfo &Kernel;
  const KernelSpec &Spec;
  MeasureOptions Options;
  unsigned TimeoutSeconds;
  unsigned Jobs;
  Screening Screen;
  double Best = 1; ///< The best speedup measured here so far.
  /// nvcc's seconds per candidate hash, from the batch's parallel build.
  llvm::StringMap<double> BuildSeconds;
};

/// A measurement for a tool failure (no source, the runner could not
/// start): the candidate is rejected with the reason as its log.
Measurement failedMeasurement(llvm::Error E);

} // namespace optiml

#endif // OPTIML_DRIVER_EVALUATORMEASURER_H
