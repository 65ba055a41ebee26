//===- EvaluatorMeasurer.cpp - build, verify and time candidates ---------===//

#include "optiml/Driver/EvaluatorMeasurer.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"
#include "optiml/Support/Stopwatch.h"

#include <atomic>
#include <thread>

using namespace optiml;

Measurement optiml::failedMeasurement(llvm::Error E) {
  Measurement M;
  M.Status = CandidateStatus::Error;
  M.Log = llvm::toString(std::move(E));
  return M;
}

EvaluatorMeasurer::~EvaluatorMeasurer() {
  if (Preparing.joinable())
    Preparing.join();
}

std::vector<BuildRequest>
EvaluatorMeasurer::requestsFor(llvm::ArrayRef<Candidate> Batch) {
  std::vector<BuildRequest> Requests{{&Original, &Kernel}};
  for (const Candidate &C : Batch)
    if (const KernelSource *S = E.source(C.Hash))
      Requests.push_back({S, &Kernel});
  return Requests;
}

/// Failures are not reported here: the evaluation that follows meets them
/// again (from the cache) and turns them into measurements.
void EvaluatorMeasurer::buildAll(const std::vector<BuildRequest> &Requests,
                                 llvm::StringMap<double> &Seconds) const {
  auto Results = B.buildAll(Requests, Jobs);
  for (size_t I = 0; I < Results.size(); ++I) {
    if (!Results[I]) {
      llvm::consumeError(Results[I].takeError());
      continue;
    }
    // A batch prepare() built is a cache hit here: keep nvcc's seconds.
    Seconds.try_emplace(Requests[I].Source->hash(), Results[I]->Seconds);
  }
}

/// Builds the batch with several nvcc processes at once.
void EvaluatorMeasurer::prebuild(llvm::ArrayRef<Candidate> Batch) {
  buildAll(requestsFor(Batch), BuildSeconds);
}

void EvaluatorMeasurer::prepare(llvm::ArrayRef<Candidate> Next) {
  finishPrepared();
  for (const Candidate &C : Next)
    PreparedHashes.insert(C.Hash);
  // The sources are looked up here: the expander is not safe to call from
  // another thread, and the search goes on proposing on this one.
  Preparing = std::thread(
      [this, Requests = requestsFor(Next)] {
        buildAll(Requests, PreparedSeconds);
      });
}

void EvaluatorMeasurer::finishPrepared() {
  if (!Preparing.joinable())
    return;
  Preparing.join();
  for (const auto &Entry : PreparedSeconds)
    BuildSeconds[Entry.getKey()] = Entry.getValue();
  PreparedSeconds.clear();
  PreparedHashes.clear();
}

MeasureOptions EvaluatorMeasurer::optionsFor(bool IsOriginal) const {
  MeasureOptions O = Options;
  if (Screen.Enabled && !IsOriginal) {
    O.ScreenBelow = Screen.Fraction * Best;
    O.MetricsMinSpeedup = Screen.Fraction * Best;
  }
  return O;
}

EvaluatorMeasurer::Inputs EvaluatorMeasurer::inputsOf(const Candidate &C) {
  Inputs In;
  In.Source = E.source(C.Hash);
  if (!In.Source) {
    In.Failed = failedMeasurement(E.stateKernel(C.Hash).takeError());
    return In;
  }
  // The original is measured against itself: its counters seed the priors.
  In.IsOriginal = In.Source->hash() == Original.hash();
  if (In.IsOriginal)
    return In;
  auto SK = E.stateKernel(C.Hash);
  if (!SK)
    In.Failed = failedMeasurement(SK.takeError());
  else
    In.CandidateSpec = std::move(SK->Spec);
  return In;
}

Measurement EvaluatorMeasurer::evaluate(const Inputs &In,
                                        const Runner &R) const {
  if (In.Failed)
    return *In.Failed;
  Evaluator Eval(B, optionsFor(In.IsOriginal), TimeoutSeconds);
  auto Ev = Eval.evaluate(Original, In.IsOriginal ? nullptr : In.Source,
                          Kernel, Spec, &R,
                          In.CandidateSpec ? &*In.CandidateSpec : nullptr);
  if (!Ev)
    return failedMeasurement(Ev.takeError());
  Measurement M = measurementOf(*Ev);
  M.Stages["build"] = Ev->Candidate.Seconds;
  return M;
}

Measurement EvaluatorMeasurer::timed(const Candidate &C, const Inputs &In,
                                     const Runner &R) const {
  Stopwatch Clock;
  Measurement M = evaluate(In, R);
  double Wall = Clock.seconds();
  // A candidate built in the batch's parallel build was a cache hit here;
  // otherwise its build happened inside this call.
  if (auto It = BuildSeconds.find(C.Hash); It != BuildSeconds.end())
    M.Stages["build"] = It->second;
  else
    Wall -= M.Stages["build"];
  M.Stages["run"] = std::max(0.0, Wall);
  return M;
}

static Measurement interrupted() {
  return failedMeasurement(makeError(ErrorKind::Internal, "interrupted"));
}

void EvaluatorMeasurer::finish(const Candidate &C, Measurement &M) {
  if (auto Seconds = E.rewriteSeconds(C.Hash))
    M.Stages["rewrite"] = *Seconds;
  if (M.ok())
    Best = std::max(Best, M.Speedup);
}

Measurement EvaluatorMeasurer::measure(const Candidate &C) {
  Measurement M = timed(C, inputsOf(C), Runners.front());
  finish(C, M);
  return M;
}

std::vector<Measurement>
EvaluatorMeasurer::measureSpread(llvm::ArrayRef<Candidate> Batch) {
  std::vector<Inputs> In;
  for (const Candidate &C : Batch)
    In.push_back(inputsOf(C));
  std::vector<Measurement> Out(Batch.size());
  std::atomic<size_t> Next{0};
  std::vector<std::thread> Gpus;
  for (size_t G = 0; G < std::min(Runners.size(), Batch.size()); ++G)
    Gpus.emplace_back([&, G] {
      // After Ctrl-C no runner starts: the loop drops this batch anyway.
      for (size_t I; (I = Next++) < Batch.size();)
        Out[I] = stopRequested() ? interrupted()
                                 : timed(Batch[I], In[I], Runners[G]);
    });
  for (std::thread &T : Gpus)
    T.join();
  for (size_t I = 0; I < Batch.size(); ++I)
    finish(Batch[I], Out[I]);
  return Out;
}

std::vector<Measurement>
EvaluatorMeasurer::measureAll(llvm::ArrayRef<Candidate> Batch) {
  // A batch prepare() is still building is waited for; one it built finds
  // its builds cached.
  if (llvm::any_of(Batch, [&](const Candidate &C) {
        return PreparedHashes.contains(C.Hash);
      }))
    finishPrepared();
  if (Batch.size() > 1)
    prebuild(Batch);
  if (Runners.size() > 1 && Batch.size() > 1)
    return measureSpread(Batch);
  std::vector<Measurement> Out;
  for (const Candidate &C : Batch)
    // After Ctrl-C no runner starts: the loop drops this batch anyway.
    Out.push_back(stopRequested() ? interrupted() : measure(C));
  return Out;
}
