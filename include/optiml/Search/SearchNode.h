//===- SearchNode.h - a state and its moves ---------------------*- C++ -*-===//
//
// States are nodes keyed by source hash, so the same source reached by
// different traces is one node with several parents (a transposition).
// Statistics live on nodes (value) and edges (visits), as PUCT needs.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_SEARCHNODE_H
#define OPTIML_SEARCH_SEARCHNODE_H

#include "optiml/Search/Expander.h"

#include <limits>

namespace optiml {

enum class EdgeKind {
  Unexpanded,  ///< Not applied yet.
  Child,       ///< Leads to a node.
  ApplyFailed, ///< The transform refused (NotApplicable, Illegal) or broke.
  Redundant,   ///< Gave back the same source, or one above it (a cycle).
};

struct SearchEdge {
  ScoredAction Move;
  double Prior = 0; ///< Normalized over the state's moves.
  EdgeKind Kind = EdgeKind::Unexpanded;
  int Child = -1;
  unsigned Visits = 0;
  unsigned Virtual = 0; ///< Visits of leaves still in flight.
  std::string Error;    ///< Why ApplyFailed.
  /// A retune (Expander::retunes): the move applies at this node, the
  /// state its own node's step started from, not at its own node. Its
  /// child is that node's child, reached from here too.
  int Base = -1;
};

enum class NodeState { Pending, Measured, Failed };

struct SearchNode {
  std::string Hash;
  Trace Steps;         ///< The first trace that reached it.
  int Parent = -1;     ///< The node it was first reached from.
  int ParentEdge = -1; ///< And through which of its edges.
  NodeState State = NodeState::Pending;
  Measurement Result;
  std::optional<double> Reward; ///< Set once measured and not rejected.
  unsigned Visits = 0;
  unsigned Virtual = 0;
  double ValueSum = 0;
  double MaxValue = -std::numeric_limits<double>::infinity();
  bool ActionsLoaded = false;
  std::string ActionsError; ///< Why the expander gave no moves.
  bool Exhausted = false;   ///< Nothing left to propose below it.
  std::vector<SearchEdge> Edges;

  bool live() const { return State == NodeState::Measured; }
  double meanValue() const { return Visits ? ValueSum / Visits : 0; }
};

} // namespace optiml

#endif // OPTIML_SEARCH_SEARCHNODE_H
