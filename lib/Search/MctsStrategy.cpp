//===- MctsStrategy.cpp - Monte Carlo tree search with PUCT ---------------===//

#include "optiml/Search/MctsStrategy.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>

using namespace optiml;

bool MctsStrategy::anyChildHelps(int N) const {
  return llvm::any_of(G.node(N).Edges, [&](const SearchEdge &E) {
    return E.Kind == EdgeKind::Child && G.helps(N, E.Child);
  });
}

MctsStrategy::RoundCount MctsStrategy::countRound(int N) const {
  RoundCount C;
  for (const SearchEdge &E : G.node(N).Edges) {
    if (E.Kind != EdgeKind::Child)
      continue;
    ++C.Children;
    C.Pending += G.node(E.Child).State == NodeState::Pending;
  }
  return C;
}

bool MctsStrategy::roundInFlight(int N) const {
  // Rounds are counted from the node's children, not kept as state: every
  // RoundWidth-th child closes one. A move that resolves without a
  // candidate (a transposition) still takes its place in the round.
  RoundCount C = countRound(N);
  return C.Pending > 0 && (C.Pending >= O.RoundWidth ||
                           C.Children % std::max(1u, O.RoundWidth) == 0);
}

bool MctsStrategy::roundOpen(int N) const {
  if (!G.node(N).live() || Busy.count(N) || anyChildHelps(N) ||
      G.unexpandedCount(N) == 0)
    return false;
  RoundCount C = countRound(N);
  return C.Pending > 0 && C.Children % std::max(1u, O.RoundWidth) != 0;
}

std::optional<unsigned> MctsStrategy::openRoundAtBest(int N) const {
  std::optional<unsigned> Best;
  double BestValue = 0;
  const SearchNode &Node = G.node(N);
  for (unsigned I = 0; I < Node.Edges.size(); ++I) {
    const SearchEdge &E = Node.Edges[I];
    if (E.Kind != EdgeKind::Child || !G.node(E.Child).live())
      continue;
    double V = value(E.Child);
    if (!Best || V > BestValue)
      Best = I, BestValue = V;
  }
  if (Best && roundOpen(Node.Edges[*Best].Child))
    return Best;
  return std::nullopt;
}

unsigned MctsStrategy::childCount(int N) const {
  const SearchNode &Node = G.node(N);
  return llvm::count_if(Node.Edges, [&](const SearchEdge &E) {
    if (E.Kind != EdgeKind::Child)
      return false;
    const SearchNode &Child = G.node(E.Child);
    return Child.State == NodeState::Pending ||
           (Child.live() &&
            !(Node.live() && G.reward().regresses(Child.Result, Node.Result)));
  });
}

unsigned MctsStrategy::widenLimit(int N) const {
  const SearchNode &Node = G.node(N);
  double Visits = Node.Visits + Node.Virtual;
  double Q = meanValue(N);
  // Centred on a value of one half, so that asymmetry moves children from
  // unpromising nodes to promising ones instead of widening everything.
  double Bias = std::max(0.0, 1 + O.WidenBeta * (2 * Q - 1));
  double K = O.WidenK * std::pow(Visits, O.WidenAlpha) * Bias;
  return std::max(1u, unsigned(std::floor(K + 1e-9)));
}

double MctsStrategy::meanValue(int N) const {
  const SearchNode &Node = G.node(N);
  if (Node.Visits == 0)
    return 0;
  double Seen = Node.Visits + O.VirtualLoss * Node.Virtual;
  return G.normalize(Node.meanValue()) * Node.Visits / Seen;
}

double MctsStrategy::value(int N) const {
  const SearchNode &Node = G.node(N);
  if (Node.Visits == 0)
    return 0;
  double Seen = Node.Visits + O.VirtualLoss * Node.Virtual;
  double Max = G.normalize(Node.MaxValue) * Node.Visits / Seen;
  return (1 - O.MaxWeight) * meanValue(N) + O.MaxWeight * Max;
}

double MctsStrategy::puct(int N, unsigned Edge) const {
  const SearchNode &Node = G.node(N);
  const SearchEdge &E = Node.Edges[Edge];
  double ParentVisits = Node.Visits + Node.Virtual;
  double EdgeVisits = E.Visits + E.Virtual;
  double U = O.CPuct * G.effectivePrior(N, Edge) * std::sqrt(ParentVisits) /
             (1 + EdgeVisits);
  return value(E.Child) + U;
}

std::optional<unsigned> MctsStrategy::selectEdge(int N) {
  std::optional<unsigned> Best;
  double BestScore = 0;
  for (unsigned I = 0; I < G.node(N).Edges.size(); ++I) {
    const SearchEdge &E = G.node(N).Edges[I];
    if (E.Kind != EdgeKind::Child || !G.node(E.Child).live() ||
        G.exhausted(E.Child))
      continue;
    double Score = puct(N, I);
    if (!Best || Score > BestScore)
      Best = I, BestScore = Score;
  }
  return Best;
}

std::optional<Candidate> MctsStrategy::expandNext(int N,
                                                  const SearchPath &Path) {
  std::optional<unsigned> Edge = G.nextUnexpanded(N);
  if (!Edge)
    return std::nullopt;
  ExpandOutcome Out = G.expand(N, *Edge);
  if (Out.Kind != ExpandKind::New)
    return std::nullopt; // Resolved without a candidate; look again.
  SearchPath Longer = Path;
  Longer.push_back({N, *Edge});
  return G.issue(Out.Child, std::move(Longer));
}

std::optional<Candidate> MctsStrategy::proposeOne() {
  // Every pass either returns, resolves one move, or marks one node busy
  // or exhausted, so this ends.
  while (true) {
    int N = SearchGraph::Root;
    SearchPath Path;
    while (true) {
      if (roundInFlight(N))
        Busy.insert(N);
      if (G.exhausted(N) || Busy.count(N)) {
        if (N == SearchGraph::Root)
          return std::nullopt;
        break; // Marked below; select again from the root.
      }
      bool CanWiden = G.unexpandedCount(N) > 0;
      // Breadth-first, in rounds, until one of N's children helps.
      bool Breadth = G.node(N).live() && !anyChildHelps(N);
      std::optional<unsigned> Open;
      if (!Breadth && (Open = openRoundAtBest(N))) {
        Path.push_back({N, *Open});
        N = G.node(N).Edges[*Open].Child;
        continue;
      }
      if (CanWiden && (Breadth || childCount(N) < widenLimit(N))) {
        if (auto C = expandNext(N, Path))
          return C;
        continue;
      }
      std::optional<unsigned> Edge = selectEdge(N);
      if (!Edge && CanWiden) {
        // No child can take a candidate: widen beyond the limit rather
        // than leave the batch short.
        if (auto C = expandNext(N, Path))
          return C;
        continue;
      }
      // Nothing can start here, or the best child waits for results in
      // flight: so does the search, rather than spend a candidate on a
      // weaker branch.
      if (!Edge || Busy.count(G.node(N).Edges[*Edge].Child)) {
        Busy.insert(N);
        if (N == SearchGraph::Root)
          return std::nullopt;
        break;
      }
      Path.push_back({N, *Edge});
      N = G.node(N).Edges[*Edge].Child;
    }
  }
}
