//===- EvaluatorMeasurer.h - build, verify and time candidates -*- C++ -*-===//
//
// The Driver's Measurer. Each candidate is built by nvcc, then evaluated
// against the original (the Evaluator's builds are cache hits). Each GPU
// times one candidate at a time, and every speedup is over the original
// measured side by side in that runner, on that GPU; with several GPUs
// (--gpus) candidates are spread over them. In batches (measureAll) the
// batch is built in parallel, then measured. Pipelined (submit/collect) a
// candidate's build starts when it is submitted, on a pool of nvcc
// threads, and a thread per GPU measures the built ones as they come, so
// that builds overlap measurements; results are collected in the order the
// candidates were submitted, so that a search does not depend on which
// build happened to finish first (and --resume replays it).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_EVALUATORMEASURER_H
#define OPTIML_DRIVER_EVALUATORMEASURER_H

#include "driver/Search/CodeTwins.h"
#include "driver/Search/SearchExpander.h"
#include "optiml/Eval/Evaluator.h"
#include "optiml/Search/Measurer.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ThreadPool.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
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
  void submit(const Candidate &C) override;
  std::pair<Candidate, Measurement> collect() override;
  void newSearch() override { Best = 1; }

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
  /// Builds the batch, \p Jobs at once, noting each one's seconds.
  void prebuild(llvm::ArrayRef<Candidate> Batch);
  /// The options for one candidate: the original's are the user's; a
  /// candidate's screen against the best speedup measured so far.
  MeasureOptions optionsFor(bool IsOriginal) const;
  Inputs inputsOf(const Candidate &C);
  /// Evaluates on \p R; safe to call from one thread per runner.
  Measurement evaluate(const Inputs &In, const Runner &R) const;
  /// evaluate() with the stages' seconds; \p Built: nvcc's seconds when
  /// the candidate was built before (its build here is a cache hit). A
  /// candidate whose machine code and launch were measured before is
  /// answered with that measurement (CodeTwins). Safe to call from one
  /// thread per runner.
  Measurement timed(const Inputs &In, const Runner &R,
                    std::optional<double> Built);
  /// \p In's key in Twins, building it when not built yet (\p Built is
  /// then set to nvcc's seconds); nothing without a SASS dump.
  std::optional<std::string> twinKey(const Inputs &In,
                                     std::optional<double> &Built) const;
  /// The rewrite's seconds, and the best speedup so far for screening.
  void finish(const Candidate &C, Measurement &M);
  /// The batch spread over the runners, one thread per GPU.
  std::vector<Measurement> measureSpread(llvm::ArrayRef<Candidate> Batch);
  std::optional<double> builtSeconds(const Candidate &C) const;

  /// A submitted candidate on its way: built, measured, collected.
  struct Job {
    Candidate C;
    Inputs In;
    std::optional<double> Built;
    Measurement Result;
    bool Measured = false; ///< Under Lock.
  };
  /// The pipeline's thread for runner \p R: measures built jobs until
  /// closed.
  void measureBuilt(const Runner &R);
  void startPipeline();
  void closePipeline();

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
  /// The best speedup measured here so far; read by the GPU threads.
  std::atomic<double> Best{1};
  /// nvcc's seconds per candidate hash, from the batch's parallel build.
  llvm::StringMap<double> BuildSeconds;
  /// Measurements by machine code and launch.
  CodeTwins Twins;

  // The pipeline: builds on a pool, one measuring thread per GPU.
  std::unique_ptr<llvm::StdThreadPool> Builds;
  std::vector<std::thread> Gpus;
  std::mutex Lock;
  std::condition_variable Changed;
  /// Built, waiting for a GPU (under Lock).
  std::deque<std::shared_ptr<Job>> ToMeasure;
  /// Submitted and not collected, oldest first (the search's thread only).
  std::deque<std::shared_ptr<Job>> InFlight;
  bool Closing = false;
};

/// A measurement for a tool failure (no source, the runner could not
/// start): the candidate is rejected with the reason as its log.
Measurement failedMeasurement(llvm::Error E);

} // namespace optiml

#endif // OPTIML_DRIVER_EVALUATORMEASURER_H
