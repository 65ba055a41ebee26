//===- StrategyFactory.h - --strategy=mcts|greedy|random --------*- C++ -*-===//

#ifndef OPTIML_SEARCH_STRATEGYFACTORY_H
#define OPTIML_SEARCH_STRATEGYFACTORY_H

#include "optiml/Search/GreedyStrategy.h"
#include "optiml/Search/MctsStrategy.h"

namespace optiml {

struct StrategyOptions {
  MctsOptions Mcts;
  GreedyOptions Greedy;
  uint64_t Seed = 1; ///< For random.
  RewardParams Reward;
};

/// The strategy called \p Name; BadInput for an unknown name.
llvm::Expected<std::unique_ptr<SearchStrategy>>
createStrategy(llvm::StringRef Name, Expander &E,
               const StrategyOptions &O = {});

} // namespace optiml

#endif // OPTIML_SEARCH_STRATEGYFACTORY_H
