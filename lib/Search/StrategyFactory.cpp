//===- StrategyFactory.cpp - --strategy=mcts|greedy|random ----------------===//

#include "optiml/Search/StrategyFactory.h"
#include "optiml/Search/RandomStrategy.h"
#include "optiml/Support/Error.h"

using namespace optiml;

llvm::Expected<std::unique_ptr<SearchStrategy>>
optiml::createStrategy(llvm::StringRef Name, Expander &E,
                       const StrategyOptions &O) {
  Reward R(O.Reward);
  if (Name == "mcts")
    return std::make_unique<MctsStrategy>(E, O.Mcts, R);
  if (Name == "greedy")
    return std::make_unique<GreedyStrategy>(E, O.Greedy, R);
  if (Name == "random")
    return std::make_unique<RandomStrategy>(E, O.Seed, R);
  return makeError(ErrorKind::BadInput, "unknown search strategy '" + Name +
                                            "' (strategies: mcts, greedy, "
                                            "random)");
}
