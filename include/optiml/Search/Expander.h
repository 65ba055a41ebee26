//===- Expander.h - the moves of the search, from outside -------*- C++ -*-===//
//
// The search knows states only as traces and hashes and moves only as
// Steps. What moves are legal, how likely each is to help, and what source
// a move produces come from here: the Driver implements it with
// ActionSpace (legal steps), StepRunner (apply, re-parse, hash) and a
// proposer (priors from the micro-profiler's findings); the tests replay a
// recorded table (SimulatedEnvironment).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_EXPANDER_H
#define OPTIML_SEARCH_EXPANDER_H

#include "optiml/Search/Measurement.h"
#include "optiml/Search/Trace.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace optiml {

/// A legal move with the proposer's belief that it helps.
struct ScoredAction {
  Step Action;
  double Prior = 1; ///< Any scale; the search normalizes per state.
  /// What suggested it (a finding's id and guidance), for the report.
  std::string Motivation;
};

/// Scales the priors of \p Moves (anything with a `Prior`: moves, a node's
/// edges) to sum to one; leaves them when they sum to zero.
template <typename T> void normalizePriors(std::vector<T> &Moves) {
  double Sum = 0;
  for (const T &M : Moves)
    Sum += M.Prior;
  if (Sum > 0)
    for (T &M : Moves)
      M.Prior /= Sum;
}

/// Where a move led: the new source's hash and the steps that made it, as
/// --apply replays them (one for a transform's step, several for a chain).
struct AppliedMove {
  std::string Hash;
  Trace Steps;
};

/// A measured state, as the expander sees it.
struct StateView {
  const Trace &Steps;
  llvm::StringRef Hash;
  const Measurement &Result; ///< Its counters feed the proposer.
};

class Expander {
public:
  virtual ~Expander();

  /// The content hash of the original source.
  virtual std::string rootHash() = 0;

  /// The legal moves from \p S, with priors. Called once per state, after
  /// it was measured. An Internal error (a bug) stops the search; any other
  /// leaves the state without moves.
  virtual llvm::Expected<std::vector<ScoredAction>>
  actions(const StateView &S) = 0;

  /// Applies \p Next to the source of \p FromHash (reached by \p From).
  /// NotApplicable and Illegal errors prune the move; the search never
  /// asks twice.
  virtual llvm::Expected<AppliedMove>
  apply(const Trace &From, llvm::StringRef FromHash, const Step &Next) = 0;

  /// The source text of a state, for the report's diffs; nothing when the
  /// expander no longer has it.
  virtual std::optional<std::string> sourceText(llvm::StringRef Hash) {
    return std::nullopt;
  }

  /// Other parameter values of \p Paid, a step that made its state faster
  /// than the one it was applied to: the search tries them in its place
  /// (from that same state) before it goes deeper. Nothing by default.
  virtual std::vector<Step> retunes(const Step &Paid) { return {}; }

  /// Told of every measurement as it comes back, failures included, so a
  /// proposer can learn from what was tried (an LLM's trajectory).
  virtual void observe(const Trace &Steps, llvm::StringRef Hash,
                       const Measurement &Result) {}
};

} // namespace optiml

#endif // OPTIML_SEARCH_EXPANDER_H
