//===- RandomStrategy.cpp - uniform random moves, a baseline --------------===//

#include "optiml/Search/RandomStrategy.h"

using namespace optiml;

std::optional<Candidate> RandomStrategy::proposeOne() {
  while (true) {
    std::vector<int> Open;
    for (int N = 0; N < int(G.size()); ++N)
      if (G.node(N).live() && (G.loadActions(N), G.unexpandedCount(N) > 0))
        Open.push_back(N);
    if (Open.empty())
      return std::nullopt;
    int N = Open[draw(Open.size())];
    std::vector<unsigned> Moves;
    for (unsigned I = 0; I < G.node(N).Edges.size(); ++I)
      if (G.node(N).Edges[I].Kind == EdgeKind::Unexpanded)
        Moves.push_back(I);
    unsigned Edge = Moves[draw(Moves.size())];
    ExpandOutcome Out = G.expand(N, Edge);
    if (Out.Kind == ExpandKind::New)
      return G.issue(Out.Child, {{N, Edge}});
  }
}
