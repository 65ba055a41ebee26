//===- EvaluatorMeasurer.cpp - build, verify and time candidates ---------===//

#include "optiml/Driver/EvaluatorMeasurer.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"

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
  for (auto &Result : B.buildAll(Requests, Jobs))
    if (!Result)
      llvm::consumeError(Result.takeError());
}

Measurement EvaluatorMeasurer::measure(const Candidate &C) {
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
  auto Ev = Eval.evaluate(Original, IsOriginal ? nullptr : Source, Kernel, Spec,
                          &R, CandidateSpec ? &*CandidateSpec : nullptr);
  if (!Ev)
    return failedMeasurement(Ev.takeError());
  return measurementOf(*Ev);
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
