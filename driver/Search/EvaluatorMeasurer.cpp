//===- EvaluatorMeasurer.cpp - build, verify and time candidates ---------===//

#include "driver/Search/EvaluatorMeasurer.h"
#include "driver/Cache/ResultCache.h"
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

EvaluatorMeasurer::~EvaluatorMeasurer() { closePipeline(); }

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
void EvaluatorMeasurer::prebuild(llvm::ArrayRef<Candidate> Batch) {
  std::vector<BuildRequest> Requests = requestsFor(Batch);
  auto Results = B.buildAll(Requests, Jobs);
  for (size_t I = 0; I < Results.size(); ++I) {
    if (!Results[I]) {
      llvm::consumeError(Results[I].takeError());
      continue;
    }
    BuildSeconds.try_emplace(Requests[I].Source->hash(), Results[I]->Seconds);
  }
}

std::optional<double>
EvaluatorMeasurer::builtSeconds(const Candidate &C) const {
  if (auto It = BuildSeconds.find(C.Hash); It != BuildSeconds.end())
    return It->second;
  return std::nullopt;
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
  auto Ev =
      Eval.evaluate(Original, In.IsOriginal ? nullptr : In.Source, Kernel, Spec,
                    &R, In.CandidateSpec ? &*In.CandidateSpec : nullptr);
  if (!Ev)
    return failedMeasurement(Ev.takeError());
  Measurement M = measurementOf(*Ev);
  M.Stages["build"] = Ev->Candidate.Seconds;
  return M;
}

std::optional<std::string>
EvaluatorMeasurer::twinKey(const Inputs &In,
                           std::optional<double> &Built) const {
  if (In.Failed)
    return std::nullopt;
  auto Build = B.build(*In.Source, Kernel);
  if (!Build) {
    llvm::consumeError(Build.takeError());
    return std::nullopt;
  }
  if (!Build->Cached && !Built)
    Built = Build->Seconds;
  if (!Build->Succeeded || !Build->CodeHash)
    return std::nullopt;
  auto SpecHash = specHash(In.CandidateSpec ? *In.CandidateSpec : Spec, Kernel);
  if (!SpecHash) {
    llvm::consumeError(SpecHash.takeError());
    return std::nullopt;
  }
  return CodeTwins::keyOf(*Build->CodeHash, *SpecHash);
}

Measurement EvaluatorMeasurer::timed(const Inputs &In, const Runner &R,
                                     std::optional<double> Built) {
  std::optional<std::string> Key = twinKey(In, Built);
  if (Key)
    if (std::optional<Measurement> Twin = Twins.find(*Key)) {
      if (Built)
        Twin->Stages["build"] = *Built;
      return std::move(*Twin);
    }
  Stopwatch Clock;
  Measurement M = evaluate(In, R);
  double Wall = Clock.seconds();
  // A candidate built before was a cache hit here; otherwise its build
  // happened inside this call.
  if (Built)
    M.Stages["build"] = *Built;
  else
    Wall -= M.Stages["build"];
  M.Stages["run"] = std::max(0.0, Wall);
  if (Key)
    Twins.remember(*Key, In.Source->hash(), M);
  return M;
}

static Measurement interrupted() {
  return failedMeasurement(makeError(ErrorKind::Internal, "interrupted"));
}

void EvaluatorMeasurer::finish(const Candidate &C, Measurement &M) {
  if (auto Seconds = E.rewriteSeconds(C.Hash))
    M.Stages["rewrite"] = *Seconds;
  if (M.ok() && M.Speedup > Best)
    Best = M.Speedup;
}

Measurement EvaluatorMeasurer::measure(const Candidate &C) {
  Measurement M = timed(inputsOf(C), Runners.front(), builtSeconds(C));
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
        Out[I] = stopRequested()
                     ? interrupted()
                     : timed(In[I], Runners[G], builtSeconds(Batch[I]));
    });
  for (std::thread &T : Gpus)
    T.join();
  for (size_t I = 0; I < Batch.size(); ++I)
    finish(Batch[I], Out[I]);
  return Out;
}

std::vector<Measurement>
EvaluatorMeasurer::measureAll(llvm::ArrayRef<Candidate> Batch) {
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

void EvaluatorMeasurer::startPipeline() {
  if (Builds)
    return;
  Builds = std::make_unique<llvm::StdThreadPool>(
      llvm::hardware_concurrency(std::max(1u, Jobs)));
  for (const Runner &R : Runners)
    Gpus.emplace_back([this, &R] { measureBuilt(R); });
}

void EvaluatorMeasurer::closePipeline() {
  if (!Builds)
    return;
  Builds->wait();
  {
    std::lock_guard<std::mutex> Hold(Lock);
    Closing = true;
  }
  Changed.notify_all();
  for (std::thread &T : Gpus)
    T.join();
}

void EvaluatorMeasurer::submit(const Candidate &C) {
  startPipeline();
  // The expander is not safe to call from another thread: its source and
  // spec are looked up here.
  auto J = std::make_shared<Job>();
  J->C = C;
  J->In = inputsOf(C);
  InFlight.push_back(J);
  Builds->async([this, J] {
    // Failures are not reported here: the evaluation meets them again
    // (from the cache) and turns them into measurements.
    if (!J->In.Failed && !stopRequested()) {
      auto R = B.build(*J->In.Source, Kernel);
      if (R)
        J->Built = R->Seconds;
      else
        llvm::consumeError(R.takeError());
    }
    {
      std::lock_guard<std::mutex> Hold(Lock);
      ToMeasure.push_back(J);
    }
    Changed.notify_all();
  });
}

void EvaluatorMeasurer::measureBuilt(const Runner &R) {
  std::unique_lock<std::mutex> Hold(Lock);
  while (true) {
    Changed.wait(Hold, [&] { return Closing || !ToMeasure.empty(); });
    if (ToMeasure.empty())
      return;
    std::shared_ptr<Job> J = std::move(ToMeasure.front());
    ToMeasure.pop_front();
    Hold.unlock();
    // After Ctrl-C no runner starts: the loop drops what is in flight.
    J->Result = stopRequested() ? interrupted() : timed(J->In, R, J->Built);
    Hold.lock();
    J->Measured = true;
    Changed.notify_all();
  }
}

std::pair<Candidate, Measurement> EvaluatorMeasurer::collect() {
  std::shared_ptr<Job> J = std::move(InFlight.front());
  InFlight.pop_front();
  {
    std::unique_lock<std::mutex> Hold(Lock);
    Changed.wait(Hold, [&] { return J->Measured; });
  }
  finish(J->C, J->Result);
  return {std::move(J->C), std::move(J->Result)};
}
