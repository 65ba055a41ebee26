//===- MctsStrategy.h - Monte Carlo tree search with PUCT -------*- C++ -*-===//
//
// Selection by PUCT over the proposer's priors; progressive widening, so a
// state's children grow with its visits (k N^alpha) and faster when it is
// promising (asymmetric branching); until one of a state's moves helps, its
// moves are measured breadth-first in rounds of a batch; a round started
// at the best child is filled first; a state whose round or best child
// waits for results starts nothing more; visits in flight lower only the
// exploration term (WU-UCT); failed candidates prune their subtree. There
// are no rollouts: a leaf's value is the best measured reward below it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_MCTSSTRATEGY_H
#define OPTIML_SEARCH_MCTSSTRATEGY_H

#include "optiml/Search/SearchStrategy.h"

#include <set>

namespace optiml {

struct MctsOptions {
  /// Weight of the prior-driven exploration term.
  double CPuct = 1.5;
  /// Children allowed: floor(WidenK * N^WidenAlpha * B), at least one,
  /// where N counts visits and B = max(0, 1 + WidenBeta * (2q - 1)) for
  /// the normalized value q: a promising node (q > 1/2) widens faster, an
  /// unpromising one slower (asymmetric branching).
  double WidenK = 1.0;
  double WidenAlpha = 0.5;
  double WidenBeta = 0.5;
  /// Q = (1 - MaxWeight) * mean + MaxWeight * max of the child's values:
  /// what matters is the best kernel below a node, not the average one. A
  /// mean pulled down by a retune that regressed sent softmax's tenth
  /// candidate to the weaker warp-per-row (7.3x) instead of below the
  /// 14x state, where restrict made 20.4x.
  double MaxWeight = 1.0;
  /// How much a visit still in flight lowers a node's value: 1 counts it
  /// as the worst value seen (classic virtual loss), 0 leaves the value
  /// alone and lets only the exploration term see the visit (WU-UCT).
  /// Any loss let linear_nt's register-blocking chains (24x) take the
  /// candidates the tensor-core state (30x) could not while one of its
  /// children was measured, and its bf16 value (36x) was never tried;
  /// with none, a clear leader keeps its rounds, and a node whose best
  /// child waits for results waits too.
  double VirtualLoss = 0;
  /// Moves a state measures at once, a round: the candidates a batch holds
  /// (greedy's Width).
  unsigned RoundWidth = 4;
};

class MctsStrategy : public SearchStrategy {
public:
  MctsStrategy(Expander &E, MctsOptions O = {}, Reward R = Reward())
      : SearchStrategy(E, R), O(O) {}

  llvm::StringRef name() const override { return "mcts"; }

  /// How many children \p N may have now.
  unsigned widenLimit(int N) const;
  /// Q + U of edge \p Edge of \p N (which must lead to a child).
  double puct(int N, unsigned Edge) const;
  /// The child edge with the highest PUCT among measured children with
  /// something left to propose, busy ones in this batch included (the
  /// caller waits when one of those is the best).
  std::optional<unsigned> selectEdge(int N);

private:
  void beginBatch() override { Busy.clear(); }
  std::optional<Candidate> proposeOne() override;
  /// Expands \p N's next move; a candidate when it gives a new state.
  std::optional<Candidate> expandNext(int N, const SearchPath &Path);
  /// Whether one of \p N's children made it faster beyond the noise
  /// (SearchGraph::helps). Until one does, \p N is searched breadth-first,
  /// in rounds of RoundWidth moves: a child that changed nothing or
  /// regressed says nothing about where to go, and going below one wasted
  /// budget (histo_global spent 6 of 10 below while-to-for, restrict and
  /// read-only, all 1.00x, while privatize-atomics, 177x, waited at the
  /// root). One that helped, even a little, is where greedy goes next, and
  /// so does MCTS: asking for 10% kept scan_block_hs searching beside
  /// warp-scan's 3% (1.15x) and softmax_block_row beside fast-math's 7%
  /// (1.34x), where greedy found unroll below them (1.26x, 1.48x).
  bool anyChildHelps(int N) const;
  struct RoundCount {
    unsigned Children = 0; ///< Moves that led to a state.
    unsigned Pending = 0;  ///< Those whose state is in flight.
  };
  /// \p N's rounds so far, as its children count them.
  RoundCount countRound(int N) const;
  /// Whether \p N's current round of RoundWidth moves is still being
  /// measured: until it is back nothing more starts at \p N or below it,
  /// since what comes back may help and change where the search goes.
  /// Filling the window instead spent sum_atomic's candidates 6-8 on unroll
  /// factors while aggregate-atomics (4.6x) was measured, and softmax's
  /// below fast-math's 13% while warp-per-row (12.4x) was; greedy, which
  /// waits for its round, found 7.5x and 20.4x where MCTS found 4.6x and
  /// 14.0x.
  bool roundInFlight(int N) const;
  /// Whether \p N's round has started and is not full yet: some of its
  /// moves are in flight, none of its children helped, and more moves
  /// wait.
  bool roundOpen(int N) const;
  /// The child edge of \p N whose child has the best value, when that
  /// child's round is open: the batch fills it before anything else, as
  /// greedy does. PUCT's exploration term sent hotspot_step's second
  /// candidate of a round from below fast-math (1.44x) to coarsen(y, 4)
  /// (1.42x), whose other values, applied to the original, took the rest
  /// of the round (1.10-1.31x), while coarsen(x, 4) below fast-math made
  /// 1.82x.
  std::optional<unsigned> openRoundAtBest(int N) const;
  /// The children of \p N that hold a place under the widening limit once
  /// one of them helps: in flight, or measured and not slower than \p N
  /// beyond the noise. One that failed or regressed frees its place, so
  /// that the search does not deepen below a regression (row_sums spent 19
  /// of 20 candidates under stage-shared at 0.3x while warp-per-row, 3x,
  /// waited at the root).
  unsigned childCount(int N) const;
  double value(int N) const;
  /// \p N's mean normalized value, its visits in flight counted at
  /// VirtualLoss.
  double meanValue(int N) const;

  MctsOptions O;
  /// Nodes where nothing more can start until results come back.
  std::set<int> Busy;
};

} // namespace optiml

#endif // OPTIML_SEARCH_MCTSSTRATEGY_H
