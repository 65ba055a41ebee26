//===- EvaluatorMeasurer.h - build, verify and time candidates -*- C++ -*-===//
//
// The Driver's Measurer: a batch is built in parallel (Builder::buildAll
// fills the build cache), then each candidate is evaluated against the
// original (the Evaluator's builds are cache hits). Each GPU times one
// runner process at a time, and every speedup is over the original measured
// side by side in that process, on that GPU; with several GPUs (--gpus)
// the batch's candidates are spread over them, one runner each at a time.
// With buildAhead(), the search proposes the next batch before measuring
// this one, and its nvcc builds run on a thread of their own meanwhile.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_EVALUATORMEASURER_H
#define OPTIML_DRIVER_EVALUATORMEASURER_H

#include "optiml/Driver/SearchExpander.h"
#include "optiml/Eval/Evaluator.h"
#include "optiml/Search/Measurer.h"

#include "llvm/ADT/StringSet.h"

#include <optional>
#include <thread>
#include <vector>

namespace optiml {

class EvaluatorMeasurer : public Measurer {
public:
  /// \p Original, \p Kernel and \p Spec are the input's; \p Options must
  /// ask for metrics so the proposer has counters. \p Runners: one per GPU
  /// (Runner::onDevice), at least one.
  EvaluatorMeasurer(SearchExpander &E, const Builder &B,
                    std::vector<Runner> Runners, const KernelSource &Original,
                    const KernelInfo &Kernel, const KernelSpec &Spec,
                    MeasureOptions Options, unsigned TimeoutSeconds,
                    unsigned Jobs, Screening Screen = {})
      : E(E), B(B), Runners(std::move(Runners)), Original(Original),
        Kernel(Kernel), Spec(Spec), Options(std::move(Options)),
        TimeoutSeconds(TimeoutSeconds), Jobs(Jobs), Screen(Screen) {}

  ~EvaluatorMeasurer() override;

  Measurement measure(const Candidate &C) override;
  std::vector<Measurement> measureAll(llvm::ArrayRef<Candidate> Batch) override;
  bool preparesAhead() const override { return BuildAhead; }
  /// Whether the search should hand it the next batch early (prepare()).
  void buildAhead(bool On) { BuildAhead = On; }
  /// Builds \p Next on a thread of its own while the current batch is
  /// measured; the next measureAll() waits for it.
  void prepare(llvm::ArrayRef<Candidate> Next) override;

private:
  /// What evaluating one candidate needs from the expander, which is not
  /// safe to call from several threads: its source and its spec.
  struct Inputs {
    const KernelSource *Source = nullptr;
    bool IsOriginal = false;
    std::optional<KernelSpec> CandidateSpec;
    std::optional<Measurement> Failed; ///< When they could not be had.
  };

  /// The build requests of the original and of \p Batch (the expander's
  /// sources, looked up on the calling thread).
  std::vector<BuildRequest> requestsFor(llvm::ArrayRef<Candidate> Batch);
  /// Builds \p Requests, \p Jobs at once, noting each one's seconds in
  /// \p Seconds.
  void buildAll(const std::vector<BuildRequest> &Requests,
                llvm::StringMap<double> &Seconds) const;
  void prebuild(llvm::ArrayRef<Candidate> Batch);
  /// Waits for prepare()'s builds and takes their seconds.
  void finishPrepared();
  /// The options for one candidate: the original's are the user's; a
  /// candidate's screen against the best speedup measured so far.
  MeasureOptions optionsFor(bool IsOriginal) const;
  Inputs inputsOf(const Candidate &C);
  /// Evaluates on \p R; safe to call from one thread per runner.
  Measurement evaluate(const Inputs &In, const Runner &R) const;
  /// evaluate() with the stages' seconds.
  Measurement timed(const Candidate &C, const Inputs &In,
                    const Runner &R) const;
  /// The rewrite's seconds, and the best speedup so far for screening.
  void finish(const Candidate &C, Measurement &M);
  /// The batch spread over the runners, one thread per GPU.
  std::vector<Measurement> measureSpread(llvm::ArrayRef<Candidate> Batch);

  SearchExpander &E;
  const Builder &B;
  std::vector<Runner> Runners;
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
  /// prepare()'s builds of the next batch, and their seconds.
  std::thread Preparing;
  llvm::StringMap<double> PreparedSeconds;
  llvm::StringSet<> PreparedHashes;
  bool BuildAhead = false;
};

/// A measurement for a tool failure (no source, the runner could not
/// start): the candidate is rejected with the reason as its log.
Measurement failedMeasurement(llvm::Error E);

} // namespace optiml

#endif // OPTIML_DRIVER_EVALUATORMEASURER_H
