//===- SearchLoop.cpp - propose, measure, notify, within a budget ---------===//

#include "optiml/Search/SearchLoop.h"

#include <algorithm>
#include <chrono>

using namespace optiml;

llvm::StringRef optiml::toString(StopReason R) {
  switch (R) {
  case StopReason::Budget:
    return "budget";
  case StopReason::Time:
    return "time";
  case StopReason::Exhausted:
    return "exhausted";
  case StopReason::Internal:
    return "internal error";
  case StopReason::Interrupted:
    return "interrupted";
  }
  return "exhausted";
}

SearchLoop::Clock SearchLoop::steadyClock() {
  return [] {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
  };
}

SearchLoop::SearchLoop(SearchStrategy &S, Measurer &M, SearchBudget B,
                       Clock Now)
    : S(S), M(M), B(B), Now(std::move(Now)) {}

SearchProgress SearchLoop::progress() const {
  const SearchGraph &G = S.graph();
  SearchProgress P;
  P.Evaluated = G.evaluated();
  P.Failed = G.failed();
  P.Cached = G.cached();
  P.Twins = G.twins();
  P.BestSpeedup = G.history().empty() ? 1 : G.history().back().BestSpeedup;
  P.Seconds = Now() - Start;
  return P;
}

unsigned SearchLoop::counted() const {
  const SearchGraph &G = S.graph();
  return G.evaluated() + (B.CountCached ? G.cached() : 0);
}

std::optional<StopReason> SearchLoop::spent(double Start) const {
  if (Stop && Stop())
    return StopReason::Interrupted;
  if (counted() >= B.MaxCandidates)
    return StopReason::Budget;
  if (B.MaxSeconds > 0 && Now() - Start >= B.MaxSeconds)
    return StopReason::Time;
  return std::nullopt;
}

std::vector<Candidate> SearchLoop::proposeUpTo(unsigned InFlight,
                                               unsigned Want) {
  unsigned Done = counted() + InFlight;
  if (Done >= B.MaxCandidates)
    return {};
  return S.propose(std::min(Want, B.MaxCandidates - Done));
}

StopReason SearchLoop::run() {
  Start = Now();
  return B.Pipelined ? runPipelined() : runBatches();
}

StopReason SearchLoop::runBatches() {
  while (true) {
    if (auto Why = spent(Start))
      return *Why;
    std::vector<Candidate> Batch = proposeUpTo(0, B.BatchSize);
    if (!S.graph().internalError().empty())
      return StopReason::Internal;
    if (Batch.empty())
      return StopReason::Exhausted;
    std::vector<Measurement> Results = M.measureAll(Batch);
    if (Stop && Stop())
      return StopReason::Interrupted;
    std::vector<CandidateResult> Told;
    for (size_t I = 0; I < Batch.size() && I < Results.size(); ++I)
      Told.push_back({Batch[I].Id, std::move(Results[I])});
    S.notify(Told);
    if (Progress)
      Progress(progress());
  }
}

StopReason SearchLoop::runPipelined() {
  unsigned InFlight = 0;
  std::optional<StopReason> Why;
  while (true) {
    // Once a budget is spent nothing new starts, but what is in flight
    // was built and is being measured: it is waited for and told.
    if (!Why)
      Why = spent(Start);
    if (Why == StopReason::Interrupted)
      return *Why;
    if (!Why && InFlight < B.BatchSize) {
      for (const Candidate &C : proposeUpTo(InFlight, B.BatchSize - InFlight)) {
        M.submit(C);
        ++InFlight;
      }
      if (!S.graph().internalError().empty())
        return StopReason::Internal;
    }
    if (InFlight == 0)
      return Why.value_or(StopReason::Exhausted);
    auto [C, Result] = M.collect();
    --InFlight;
    if (Stop && Stop())
      return StopReason::Interrupted;
    S.notify({{C.Id, std::move(Result)}});
    if (Progress)
      Progress(progress());
  }
}
