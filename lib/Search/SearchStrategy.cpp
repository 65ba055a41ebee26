//===- SearchStrategy.cpp - ask/tell search over rewrite traces -----------===//

#include "optiml/Search/SearchStrategy.h"

using namespace optiml;

std::vector<Candidate> SearchStrategy::propose(unsigned N) {
  std::vector<Candidate> Out;
  if (N == 0)
    return Out;
  if (!G.rootIssued()) {
    Out.push_back(G.issue(SearchGraph::Root, {}));
    return Out;
  }
  if (!G.node(SearchGraph::Root).live())
    return Out; // The original is in flight, or failed: nothing to build on.
  beginBatch();
  while (Out.size() < N) {
    std::optional<Candidate> C = proposeOne();
    if (!C)
      break;
    Out.push_back(std::move(*C));
  }
  return Out;
}

void SearchStrategy::notify(llvm::ArrayRef<CandidateResult> Results) {
  for (const CandidateResult &R : Results)
    G.record(R);
}
