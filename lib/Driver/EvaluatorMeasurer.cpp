//===- EvaluatorMeasurer.cpp - build, verify and time candidates ---------===//

#include "optiml/Driver/EvaluatorMeasurer.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"
#include "optiml/Support/Stopwatch.h"

using namespace optiml;

Measurement optiml::failedMeasurement(llvm::Error E) {
  Measurement M;
  M.Status = CandidateStatus::Error;
  M.Log = llvm::toString(std::move(E));
  return M;
}

/// Builds the batch with several nvcc processes at once. Failures are not
/// reported here: the evaluation that follows meets them again (from the
/// cache) and turns them into measurements.
void EvaluatorMeasurer::prebuild(llvm::ArrayRef<Candidate> Batch) {
  std::vector<BuildRequest> Requests{{&Original, &Kernel}};
  for (const Candidate &C : Batch)
    if (const KernelSource *S = E.source(C.Hash))
      Requests.push_back({S, &Kernel});
  auto Results = B.buildAll(Requests, Jobs);
  for (size_t I = 0; I < Results.size(); ++I) {
    if (!Results[I]) {
      llvm::consumeError(Results[I].takeError());
      continue;
    }
    BuildSeconds[Requests[I].Source->hash()] = Results[I]->Seconds;
  }
}

MeasureOptions EvaluatorMeasurer::optionsFor(bool IsOriginal) const {
  MeasureOptions O = Options;
  if (Screen.Enabled && !IsOriginal) {
    O.ScreenBelow = Screen.Fraction * Best;
    O.MetricsMinSpeedup = Screen.Fraction * Best;
  }
  return O;
}

Measurement EvaluatorMeasurer::measure(const Candidate &C) {
  Stopwatch Clock;
  Measurement M = evaluate(C);
  double Wall = Clock.seconds();
  // A candidate built in the batch's parallel build was a cache hit here;
  // otherwise its build happened inside this call.
  if (auto It = BuildSeconds.find(C.Hash); It != BuildSeconds.end())
    M.Stages["build"] = It->second;
  else
    Wall -= M.Stages["build"];
  M.Stages["run"] = std::max(0.0, Wall);
  if (auto Seconds = E.rewriteSeconds(C.Hash))
    M.Stages["rewrite"] = *Seconds;
  if (M.ok())
    Best = std::max(Best, M.Speedup);
  return M;
}

Measurement EvaluatorMeasurer::evaluate(const Candidate &C) {
  const KernelSource *Source = E.source(C.Hash);
  if (!Source)
    return failedMeasurement(E.stateKernel(C.Hash).takeError());
  // The original is measured against itself: its counters seed the priors.
  bool IsOriginal = Source->hash() == Original.hash();
  std::optional<KernelSpec> CandidateSpec;
  if (!IsOriginal) {
    auto SK = E.stateKernel(C.Hash);
    if (!SK)
      return failedMeasurement(SK.takeError());
    CandidateSpec = std::move(SK->Spec);
  }
  Evaluator Eval(B, optionsFor(IsOriginal), TimeoutSeconds);
  auto Ev = Eval.evaluate(Original, IsOriginal ? nullptr : Source, Kernel, Spec,
                          &R, CandidateSpec ? &*CandidateSpec : nullptr);
  if (!Ev)
    return failedMeasurement(Ev.takeError());
  Measurement M = measurementOf(*Ev);
  if (!BuildSeconds.count(C.Hash))
    M.Stages["build"] = Ev->Candidate.Seconds;
  return M;
}

std::vector<Measurement>
EvaluatorMeasurer::measureAll(llvm::ArrayRef<Candidate> Batch) {
  if (Batch.size() > 1)
    prebuild(Batch);
  std::vector<Measurement> Out;
  for (const Candidate &C : Batch)
    // After Ctrl-C no runner starts: the loop drops this batch anyway.
    Out.push_back(stopRequested() ? failedMeasurement(makeError(
                                        ErrorKind::Internal, "interrupted"))
                                  : measure(C));
  return Out;
}
