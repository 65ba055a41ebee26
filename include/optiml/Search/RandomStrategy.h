//===- RandomStrategy.h - uniform random moves, a baseline ------*- C++ -*-===//
//
// A uniformly chosen measured state, then a uniformly chosen untried move
// of it: the floor any guided search must clear. Seeded, and portable:
// draws come straight from std::mt19937_64, whose output the standard
// fixes, not from a distribution whose algorithm it leaves open.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_RANDOMSTRATEGY_H
#define OPTIML_SEARCH_RANDOMSTRATEGY_H

#include "optiml/Search/SearchStrategy.h"

#include <random>

namespace optiml {

class RandomStrategy : public SearchStrategy {
public:
  RandomStrategy(Expander &E, uint64_t Seed = 1, Reward R = Reward())
      : SearchStrategy(E, R), Rng(Seed) {}

  llvm::StringRef name() const override { return "random"; }

private:
  std::optional<Candidate> proposeOne() override;
  /// Uniform in [0, N).
  size_t draw(size_t N) { return N ? size_t(Rng() % N) : 0; }

  std::mt19937_64 Rng;
};

} // namespace optiml

#endif // OPTIML_SEARCH_RANDOMSTRATEGY_H
