//===- GreedyStrategy.h - hill climbing by prior, a baseline ----*- C++ -*-===//
//
// From the current state, measure its Width most likely moves; move to the
// fastest child if it beats the current state, else measure the next
// Width; stop at a state none of whose moves helps. What a developer does
// by hand, and what MCTS must beat at equal budget.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_GREEDYSTRATEGY_H
#define OPTIML_SEARCH_GREEDYSTRATEGY_H

#include "optiml/Search/SearchStrategy.h"

#include <algorithm>

namespace optiml {

struct GreedyOptions {
  unsigned Width = 4; ///< Moves measured before deciding where to go.
};

class GreedyStrategy : public SearchStrategy {
public:
  GreedyStrategy(Expander &E, GreedyOptions O = {}, Reward R = Reward())
      : SearchStrategy(E, R), O(O) {
    this->O.Width = std::max(1u, O.Width);
  }

  llvm::StringRef name() const override { return "greedy"; }
  int current() const { return Current; }

private:
  std::optional<Candidate> proposeOne() override;
  /// Moves to the best child when it improves; false at a local optimum.
  bool climb();
  bool roundPending() const;

  GreedyOptions O;
  int Current = SearchGraph::Root;
  unsigned RoundIssued = 0;
  bool Done = false;
};

} // namespace optiml

#endif // OPTIML_SEARCH_GREEDYSTRATEGY_H
