//===- RecordedLandscape.cpp - a search's states, for replaying -----------===//

#include "optiml/Search/RecordedLandscape.h"
#include "optiml/Search/SearchGraph.h"
#include "optiml/Search/Trace.h"

using namespace optiml;
using nlohmann::json;

/// What edge \p E of a state came to, as a table's action.
static json actionOf(const SearchGraph &G, const SearchEdge &E) {
  json A = {{"step", E.Move.Action.str()},
            {"prior", E.Prior},
            {"motivation", E.Move.Motivation}};
  switch (E.Kind) {
  case EdgeKind::Child:
    if (G.node(E.Child).State != NodeState::Pending) {
      A["to"] = G.node(E.Child).Hash;
      return A;
    }
    break;
  case EdgeKind::ApplyFailed:
    A["error"] = E.Error.empty() ? "refused" : E.Error;
    return A;
  case EdgeKind::Redundant:
    // No candidate either way: a refusal replays it.
    A["error"] = "redundant: a source the search had already";
    return A;
  case EdgeKind::Unexpanded:
    break;
  }
  A["untried"] = true;
  return A;
}

/// State \p N as a table's entry, timed against \p RootTimeNs.
static json stateOf(const SearchGraph &G, int N, double RootTimeNs) {
  const SearchNode &Node = G.node(N);
  const Measurement &M = Node.Result;
  bool Ok = Node.live() && M.Speedup > 0;
  json S = {
      {"status",
       Ok ? "ok" : toString(M.ok() ? CandidateStatus::Error : M.Status).str()}};
  if (Ok)
    S["time_ns"] = N == SearchGraph::Root ? RootTimeNs : RootTimeNs / M.Speedup;
  if (M.RooflineFraction)
    S["roofline"] = *M.RooflineFraction;
  if (!M.TwinOf.empty())
    S["twin_of"] = M.TwinOf;
  json Actions = json::array();
  for (const SearchEdge &E : Node.Edges)
    if (E.Base < 0)
      Actions.push_back(actionOf(G, E));
  S["actions"] = std::move(Actions);
  return S;
}

/// Each step of \p States' moves that has parameters, with its retunes.
static json retunesOf(const json &States, Expander &E) {
  json Out = json::object();
  for (const auto &[Hash, S] : States.items())
    for (const json &A : S["actions"]) {
      std::string Spelling = A["step"];
      if (Out.contains(Spelling))
        continue;
      auto Made = parseStepSpelling(Spelling);
      if (!Made) {
        llvm::consumeError(Made.takeError());
        continue;
      }
      if (Made->Params.items().empty())
        continue;
      json Others = json::array();
      for (const Step &Other : E.retunes(*Made))
        Others.push_back(Other.str());
      Out[Spelling] = std::move(Others);
    }
  return Out;
}

json optiml::recordLandscape(const SearchGraph &G, Expander &E) {
  const Measurement &Original = G.node(SearchGraph::Root).Result;
  double RootTimeNs =
      Original.ReferenceTimeNs > 0 ? Original.ReferenceTimeNs : Original.TimeNs;
  if (!(RootTimeNs > 0) || !G.node(SearchGraph::Root).live())
    return nullptr;
  json States = json::object();
  for (int N = 0; N < int(G.size()); ++N)
    if (G.node(N).State != NodeState::Pending)
      States[G.node(N).Hash] = stateOf(G, N, RootTimeNs);
  json Retunes = retunesOf(States, E);
  return {{"root", G.node(SearchGraph::Root).Hash},
          {"noise", Original.Noise},
          {"states", std::move(States)},
          {"retunes", std::move(Retunes)}};
}
