//===- SearchStrategy.h - ask/tell search over rewrite traces ---*- C++ -*-===//
//
// As in TVM's MetaSchedule: the strategy proposes candidates and is told
// their measurements; it never builds or touches a GPU, so the same code
// runs against the real evaluator and against a replayed table. The first
// proposal is always the original alone, because every move's prior comes
// from the original's counters and every reward is relative to it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_SEARCHSTRATEGY_H
#define OPTIML_SEARCH_SEARCHSTRATEGY_H

#include "optiml/Search/SearchGraph.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>

namespace optiml {

class SearchStrategy {
public:
  SearchStrategy(Expander &E, Reward R) : G(E, R) {}
  virtual ~SearchStrategy();

  virtual llvm::StringRef name() const = 0;

  /// Up to \p N new candidates, never one proposed before. Fewer, or none,
  /// when nothing more can be proposed until results come back, or ever.
  std::vector<Candidate> propose(unsigned N);
  /// Results of earlier proposals, in any order.
  void notify(llvm::ArrayRef<CandidateResult> Results);

  const SearchGraph &graph() const { return G; }
  SearchGraph &graph() { return G; }

protected:
  /// Called once per propose() before the first proposeOne().
  virtual void beginBatch() {}
  /// One more candidate once the original is measured, or nothing.
  virtual std::optional<Candidate> proposeOne() = 0;

  SearchGraph G;
};

} // namespace optiml

#endif // OPTIML_SEARCH_SEARCHSTRATEGY_H
