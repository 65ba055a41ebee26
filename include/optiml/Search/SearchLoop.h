//===- SearchLoop.h - propose, measure, notify ------------------*- C++ -*-===//
//
// The loop the Driver runs, until the candidate budget or the wall-time
// budget is spent or the strategy has nothing left. In batches: a batch of
// candidates per iteration, built in parallel and timed one at a time,
// each batch chosen with the results of the one before. Pipelined: the
// loop keeps BatchSize candidates in flight and proposes a new one as soon
// as one comes back, so that nvcc builds the next candidates while the GPU
// measures the one before; every proposal sees every result but those of
// the few still in flight. Candidates answered from the database cost
// nothing and do not count against the budget.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_SEARCHLOOP_H
#define OPTIML_SEARCH_SEARCHLOOP_H

#include "optiml/Search/Measurer.h"
#include "optiml/Search/SearchStrategy.h"

#include <functional>

namespace optiml {

struct SearchBudget {
  unsigned MaxCandidates = 64; ///< Measured ones, the original included.
  double MaxSeconds = 0;       ///< Wall time; 0: no limit.
  unsigned BatchSize = 4;      ///< Leaves per iteration, or in flight.
  bool Pipelined = false;      ///< Measurer::submit/collect, not batches.
  /// Database answers (and twins' answers, Measurement::TwinOf) count
  /// against MaxCandidates as if measured: searches compared on one
  /// database then get the same number of candidates.
  bool CountCached = false;
};

struct SearchProgress {
  unsigned Evaluated = 0; ///< Measured now (not from the database).
  unsigned Failed = 0;
  unsigned Cached = 0; ///< Answered without the GPU, Twins included.
  unsigned Twins = 0;  ///< Answered by the same machine code's measurement.
  double BestSpeedup = 1;
  double Seconds = 0;
};

enum class StopReason {
  Budget,
  Time,
  Exhausted,
  Internal,    ///< The expander reported a bug (SearchGraph::internalError).
  Interrupted, ///< stopWhen's predicate turned true (Ctrl-C).
};
llvm::StringRef toString(StopReason R);

class SearchLoop {
public:
  /// Seconds since some fixed point; injectable so tests control time.
  using Clock = std::function<double()>;

  SearchLoop(SearchStrategy &S, Measurer &M, SearchBudget B,
             Clock Now = steadyClock());

  /// Called after every batch, or every result when pipelined (a progress
  /// bar).
  void onProgress(std::function<void(const SearchProgress &)> F) {
    Progress = std::move(F);
  }

  /// Asked before every batch and after it: true stops the loop. A batch
  /// measured while it turned true is not told to the strategy: the signal
  /// that asked for the stop killed its builds and runs too.
  void stopWhen(std::function<bool()> F) { Stop = std::move(F); }

  StopReason run();
  SearchProgress progress() const;

  static Clock steadyClock();

private:
  /// Candidates that count against the budget.
  unsigned counted() const;
  std::optional<StopReason> spent(double Start) const;
  /// Up to \p Want new candidates, the budget left net of \p InFlight ones
  /// not yet measured; empty when it is spent or nothing can be proposed.
  std::vector<Candidate> proposeUpTo(unsigned InFlight, unsigned Want);
  StopReason runBatches();
  StopReason runPipelined();

  SearchStrategy &S;
  Measurer &M;
  SearchBudget B;
  Clock Now;
  double Start = 0;
  std::function<void(const SearchProgress &)> Progress;
  std::function<bool()> Stop;
};

} // namespace optiml

#endif // OPTIML_SEARCH_SEARCHLOOP_H
