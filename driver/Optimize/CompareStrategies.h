//===- CompareStrategies.h - --compare: strategies side by side -*- C++ -*-===//
//
// Several searches of one kernel, one after the other in one process: one
// runner per GPU (its context and the original's outputs kept), one
// database (a candidate one search measured is an answer for the next, and
// counts against the budget as if measured), each search measured as if
// alone. The table says what each strategy found at the same budget; -o
// gets the best kernel of any.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_COMPARESTRATEGIES_H
#define OPTIML_DRIVER_COMPARESTRATEGIES_H

#include "driver/Optimize/OptimizeSearch.h"

namespace optiml {

/// One search of a comparison.
struct ComparedRun {
  std::string Strategy;
  std::optional<uint64_t> Seed; ///< Random's; mcts and greedy make no choice.
  std::string Prefix;           ///< Its report's (and kernel's) prefix.
  OptimizeOutcome Outcome;
};

/// BadInput for an unknown or repeated strategy, a seed count outside
/// 1..100, or a model in the loop (its proposals would differ per search).
llvm::Error checkCompareOptions(const OptimizeOptions &O);

/// The searches --compare asks for, in order, with their report prefixes
/// (PREFIX.mcts, PREFIX.random-seed3, ...).
std::vector<ComparedRun> comparedRuns(const OptimizeOptions &O);

/// The options of search \p R of \p O: its strategy and seed, its report
/// at R.Prefix, its kernel at R.Prefix.cu, the database's answers counted.
OptimizeOptions runOptions(const OptimizeOptions &O, const ComparedRun &R);

/// Runs every search of comparedRuns(O), writes -o (the best kernel of
/// any), PREFIX.compare.md and PREFIX.compare.json, and prints the table
/// to \p Log. The outcome is the best search's; its report paths are the
/// comparison's.
llvm::Expected<OptimizeOutcome>
compareStrategies(Expander &E, Measurer &M, Database &Db, int64_t KernelId,
                  llvm::StringRef KernelName, const OptimizeOptions &O,
                  llvm::raw_ostream &Log, bool Interactive);

} // namespace optiml

#endif // OPTIML_DRIVER_COMPARESTRATEGIES_H
