//===- SearchGraph.h - the states of one search -----------------*- C++ -*-===//
//
// The bookkeeping every strategy shares: expanding a move through the
// Expander (with transposition and cycle detection), issuing candidates
// with virtual loss along their path, recording measurements (reward,
// pruning of failures, failure-driven prior cuts, backup), and the best
// state and its history. Strategies only decide which move to try next.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_SEARCHGRAPH_H
#define OPTIML_SEARCH_SEARCHGRAPH_H

#include "optiml/Search/Candidate.h"
#include "optiml/Search/FailureTracker.h"
#include "optiml/Search/Reward.h"
#include "optiml/Search/SearchNode.h"

#include "llvm/ADT/StringMap.h"

#include <map>
#include <set>

namespace optiml {

/// Edges taken from the root, as (node, edge index); the leaf is not in it.
using SearchPath = std::vector<std::pair<int, unsigned>>;

enum class ExpandKind { New, Transposition, ApplyFailed, Redundant };

struct ExpandOutcome {
  ExpandKind Kind;
  int Child = -1; ///< For New and Transposition.
};

/// One point of the best-speedup-over-evaluations series.
struct HistoryPoint {
  unsigned Evaluation = 0; ///< 1-based, in the order results came back.
  uint64_t CandidateId = 0;
  std::string Hash;
  CandidateStatus Status = CandidateStatus::Ok;
  bool Cached = false;
  /// With Cached: the candidate whose measurement answered this one (the
  /// same machine code, Measurement::TwinOf).
  std::string TwinOf;
  /// The objective's effective gain (Measurement::effectiveGain(): the
  /// speedup under --objective time): 1 inside the noise, 0 if rejected.
  double Speedup = 0;
  double BestSpeedup = 1; ///< Best effective gain so far.
};

class SearchGraph {
public:
  SearchGraph(Expander &E, Reward R = Reward());

  Expander &expander() { return E; }
  const Reward &reward() const { return R; }
  FailureTracker &failures() { return Failures; }

  static constexpr int Root = 0;
  const SearchNode &node(int N) const { return Nodes[N]; }
  size_t size() const { return Nodes.size(); }
  /// The node of source \p Hash, or -1.
  int find(llvm::StringRef Hash) const;

  /// Asks the expander for \p N's moves once it is measured; priors are
  /// normalized and moves sorted by prior (stable); the retunes of the
  /// step that made \p N, when it helps, follow its likeliest move. False when
  /// \p N has no moves (not measured, failed, or the expander found none).
  bool loadActions(int N);
  /// Whether \p To is faster than \p From under the objective, beyond the
  /// noise of both (both measured).
  bool helps(int From, int To) const;
  /// Whether \p To helps and is at least 10% faster than \p From: a move
  /// that pays, as opposed to one that helps a little.
  bool pays(int From, int To) const;
  /// The edge's prior cut by its transform's failures.
  double effectivePrior(int N, unsigned Edge) const;
  /// The unexpanded edge of \p N with the highest effective prior.
  std::optional<unsigned> nextUnexpanded(int N) const;
  unsigned unexpandedCount(int N) const;
  /// Applies edge \p Edge of \p N through the expander.
  ExpandOutcome expand(int N, unsigned Edge);

  /// Nothing left to propose at or below \p N: measured-out or failed,
  /// all moves resolved, every child exhausted. Pending nodes are not.
  bool exhausted(int N);

  /// A candidate for pending node \p N reached along \p Path; applies
  /// virtual loss along it until the result comes back.
  Candidate issue(int N, SearchPath Path);
  bool rootIssued() const { return RootIssued; }
  size_t inFlight() const { return Pending.size(); }

  /// Records a result: the node becomes measured or failed, the reward is
  /// computed and backed up along the candidate's path, virtual loss is
  /// removed. Unknown ids are ignored. Returns the node, or -1.
  int record(const CandidateResult &Result);

  /// Rewards seen so far map to [0, 1], from the original's (or the least
  /// seen, before the original's) to the best: PUCT's exploration term
  /// needs values on a fixed scale whatever the kernel, and a node no
  /// better than the original is worth nothing.
  double normalize(double Reward) const;

  /// The best measured state by effective speedup (the root when nothing
  /// beats the original).
  int best() const { return Best; }
  /// What node \p N gains under the objective: the original is the
  /// reference, so its gain is 1 however its run against itself came out
  /// (energy's one reading a side can differ by several percent); any
  /// other node's is Measurement::effectiveGain().
  double gainOf(int N) const;
  const std::vector<HistoryPoint> &history() const { return History; }
  unsigned evaluated() const { return Evaluated; } ///< Not cached.
  unsigned failed() const { return Failed; }
  unsigned cached() const { return Cached; }
  /// Of cached(), those answered by a twin's measurement.
  unsigned twins() const { return Twins; }
  /// The first Internal error the expander gave (a bug, such as a prior
  /// naming no transform), on which the search stops; empty when none.
  /// Other errors only leave their node without moves.
  const std::string &internalError() const { return InternalError; }

private:
  struct InFlight {
    int Node;
    SearchPath Path;
  };

  int addNode(std::string Hash, Trace Steps, int Parent, int ParentEdge);
  /// Retunes of the step that made \p N, when it helped (Expander::retunes).
  void addRetunes(int N);
  /// \p N's edge of \p Move, added without a prior if it has none.
  unsigned edgeFor(int N, const ScoredAction &Move);
  /// Expands a retune through its base node's edge of the same step.
  ExpandOutcome expandRetune(int N, unsigned Edge);
  bool reaches(int From, int To) const;
  void setVirtual(const InFlight &F, int Delta);
  void backup(const InFlight &F, double Value);
  void noteResult(int N, const CandidateResult &Result);
  /// Notes \p N's step as inert when its code is its parent's (a twin of
  /// it): the same step elsewhere likely changes nothing either.
  void noteInert(int N);
  /// Scales down the priors of steps noted inert, so that a state tries
  /// them after the others.
  void demoteInert(std::vector<ScoredAction> &Moves) const;

  Expander &E;
  Reward R;
  FailureTracker Failures;
  /// Steps (as spelled) that built their parent's machine code somewhere.
  std::set<std::string> Inert;
  std::vector<SearchNode> Nodes;
  llvm::StringMap<int> ByHash;
  std::map<uint64_t, InFlight> Pending;
  uint64_t NextId = 1;
  bool RootIssued = false;
  double MinReward = 0, MaxReward = 0;
  bool AnyReward = false;
  int Best = Root;
  std::vector<HistoryPoint> History;
  unsigned Evaluated = 0, Failed = 0, Cached = 0, Twins = 0;
  std::string InternalError;
};

} // namespace optiml

#endif // OPTIML_SEARCH_SEARCHGRAPH_H
