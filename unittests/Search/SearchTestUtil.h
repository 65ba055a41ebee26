//===- SearchTestUtil.h - small tables for search tests ---------*- C++ -*-===//

#ifndef OPTIML_UNITTESTS_SEARCH_SEARCHTESTUTIL_H
#define OPTIML_UNITTESTS_SEARCH_SEARCHTESTUTIL_H

#include "optiml/Search/Measurer.h"
#include "optiml/Search/SearchStrategy.h"
#include "optiml/Search/SimulatedEnvironment.h"

#include "gtest/gtest.h"
#include <nlohmann/json.hpp>

#include <functional>

namespace optiml::test {

/// An environment over \p Table, which must be valid.
inline std::unique_ptr<SimulatedEnvironment> env(const nlohmann::json &Table,
                                                 uint64_t Seed = 1) {
  auto E = SimulatedEnvironment::fromText(Table.dump(), Seed);
  if (!E) {
    ADD_FAILURE() << llvm::toString(E.takeError());
    return nullptr;
  }
  return std::move(*E);
}

/// A move to \p To, spelled as a step of \p Transform at site \p Site.
inline nlohmann::json move(const std::string &Transform,
                           const std::string &Site, double Prior,
                           const std::string &To) {
  return {{"step", Transform + "(site=" + Site + ")"},
          {"prior", Prior},
          {"to", To}};
}

/// A move to \p To spelled in full, parameters and all.
inline nlohmann::json step(const std::string &Spelling, double Prior,
                           const std::string &To) {
  return {{"step", Spelling}, {"prior", Prior}, {"to", To}};
}

inline nlohmann::json state(double TimeNs, nlohmann::json Actions = {}) {
  return {{"time_ns", TimeNs},
          {"actions", Actions.is_null() ? nlohmann::json::array() : Actions}};
}

/// A tree of \p Depth levels under the root with \p Branching moves each;
/// state "r" is the root, its children "r0", "r1", ... Priors fall with
/// the index, times follow a fixed pattern so values differ; with \p Falling
/// every state is faster than its parent instead (none regresses).
inline nlohmann::json treeTable(unsigned Depth, unsigned Branching,
                                bool Falling = false) {
  nlohmann::json States = nlohmann::json::object();
  std::function<void(const std::string &, unsigned)> Add =
      [&](const std::string &Name, unsigned Level) {
        nlohmann::json Actions = nlohmann::json::array();
        if (Level < Depth)
          for (unsigned I = 0; I < Branching; ++I) {
            std::string Child = Name + std::to_string(I);
            Actions.push_back(
                move("t" + std::to_string(I), Name, 1.0 / (I + 1), Child));
            Add(Child, Level + 1);
          }
        double Time =
            Falling ? 100.0 / Name.size()
                    : 100.0 / (1 + 0.1 * ((Name.size() * 7 + Name.back()) % 5));
        States[Name] = state(Time, Actions);
      };
  Add("r", 0);
  return {{"root", "r"}, {"noise", 0.0}, {"states", States}};
}

/// Proposes up to \p N, measures each with \p M and tells the strategy.
inline std::vector<Candidate> round(SearchStrategy &S, Measurer &M,
                                    unsigned N) {
  std::vector<Candidate> Batch = S.propose(N);
  std::vector<CandidateResult> Results;
  for (const Candidate &C : Batch)
    Results.push_back({C.Id, M.measure(C)});
  S.notify(Results);
  return Batch;
}

/// The simulated environment's measurements, pipelined: collect() returns
/// the newest candidate in flight (as a quick build would overtake slower
/// ones), and each call is noted: 's' a submit, 'c' a collect.
class PipelinedMeasurer : public Measurer {
public:
  explicit PipelinedMeasurer(SimulatedEnvironment &Env) : Env(Env) {}
  Measurement measure(const Candidate &C) override { return Env.measure(C); }
  void submit(const Candidate &C) override {
    InFlight.push_back(C);
    MostInFlight = std::max(MostInFlight, InFlight.size());
    Calls += 's';
  }
  std::pair<Candidate, Measurement> collect() override {
    Candidate C = InFlight.back();
    InFlight.pop_back();
    Calls += 'c';
    return {C, Env.measure(C)};
  }
  SimulatedEnvironment &Env;
  std::vector<Candidate> InFlight;
  size_t MostInFlight = 0;
  std::string Calls;
};

} // namespace optiml::test

#endif // OPTIML_UNITTESTS_SEARCH_SEARCHTESTUTIL_H
