//===- GreedyStrategy.cpp - hill climbing by prior, a baseline ------------===//

#include "optiml/Search/GreedyStrategy.h"

using namespace optiml;

bool GreedyStrategy::roundPending() const {
  for (const SearchEdge &E : G.node(Current).Edges)
    if (E.Kind == EdgeKind::Child &&
        G.node(E.Child).State == NodeState::Pending)
      return true;
  return false;
}

bool GreedyStrategy::climb() {
  int Best = -1;
  for (const SearchEdge &E : G.node(Current).Edges)
    if (E.Kind == EdgeKind::Child && G.node(E.Child).live() &&
        (Best < 0 || G.gainOf(E.Child) > G.gainOf(Best)))
      Best = E.Child;
  if (Best < 0 || G.gainOf(Best) <= G.gainOf(Current))
    return false;
  Current = Best;
  RoundIssued = 0;
  return true;
}

std::optional<Candidate> GreedyStrategy::proposeOne() {
  while (!Done) {
    G.loadActions(Current);
    std::optional<unsigned> Edge = G.nextUnexpanded(Current);
    if (Edge && RoundIssued < O.Width) {
      ExpandOutcome Out = G.expand(Current, *Edge);
      if (Out.Kind == ExpandKind::New) {
        ++RoundIssued;
        return G.issue(Out.Child, {{Current, *Edge}});
      }
      if (Out.Kind == ExpandKind::Transposition)
        ++RoundIssued;
      continue;
    }
    if (roundPending())
      return std::nullopt;
    if (climb())
      continue;
    if (!Edge) {
      Done = true; // A local optimum with every move tried.
      break;
    }
    RoundIssued = 0; // No child helped yet: try the next Width moves.
  }
  return std::nullopt;
}
