//===- SearchLoop.h - propose, measure, notify ------------------*- C++ -*-===//
//
// The loop the Driver runs: a batch of candidates per iteration, measured
// by the Measurer (built in parallel, timed one at a time), until the
// candidate budget or the wall-time budget is spent or the strategy has
// nothing left. With a Measurer that prepares ahead, the next batch is
// proposed before this one is measured and built while it is. Candidates answered from the database cost nothing and do
// not count against the budget.
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
  unsigned BatchSize = 4;      ///< Leaves per iteration.
};

struct SearchProgress {
  unsigned Evaluated = 0; ///< Measured now (not from the database).
  unsigned Failed = 0;
  unsigned Cached = 0;
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

  /// Called after every batch (a progress bar).
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
  std::optional<StopReason> spent(double Start) const;
  /// A batch of new candidates, the budget left net of \p InFlight ones
  /// not yet measured; empty when it is spent or nothing can be proposed.
  std::vector<Candidate> proposeUpTo(unsigned InFlight);

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
