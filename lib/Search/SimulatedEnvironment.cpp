//===- SimulatedEnvironment.cpp - a recorded search space, replayed -------===//

#include "optiml/Search/SimulatedEnvironment.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/MemoryBuffer.h"

#include <nlohmann/json.hpp>

#include <random>
#include <set>

using namespace optiml;
using nlohmann::json;

static llvm::Error bad(const llvm::Twine &Why) {
  return makeError(ErrorKind::BadInput, "simulated environment: " + Why);
}

llvm::Expected<std::unique_ptr<SimulatedEnvironment>>
SimulatedEnvironment::fromFile(llvm::StringRef Path, uint64_t Seed) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return bad("cannot read " + Path + ": " + Buffer.getError().message());
  return fromText((*Buffer)->getBuffer(), Seed);
}

llvm::Expected<std::unique_ptr<SimulatedEnvironment>>
SimulatedEnvironment::fromText(llvm::StringRef JSONText, uint64_t Seed) {
  try {
    return parse(JSONText, Seed);
  } catch (const json::exception &E) {
    return bad(E.what());
  }
}

llvm::Expected<std::unique_ptr<SimulatedEnvironment>>
SimulatedEnvironment::parse(llvm::StringRef JSONText, uint64_t Seed) {
  json T = json::parse(JSONText.begin(), JSONText.end());
  std::unique_ptr<SimulatedEnvironment> Env(new SimulatedEnvironment());
  Env->Seed = Seed;
  Env->Root = T.at("root").get<std::string>();
  Env->Noise = T.value("noise", 0.01);
  Env->SecondsPerCandidate = T.value("seconds_per_candidate", 1.0);
  for (const auto &[Hash, S] : T.at("states").items()) {
    State St;
    std::string Status = S.value("status", "ok");
    auto Parsed = parseCandidateStatus(Status);
    if (!Parsed)
      return bad("state " + Hash + ": unknown status '" + Status + "'");
    St.Status = *Parsed;
    St.TimeNs = S.value("time_ns", 0.0);
    if (St.Status == CandidateStatus::Ok && St.TimeNs <= 0)
      return bad("state " + Hash + ": an ok state needs a positive time_ns");
    if (S.contains("roofline"))
      St.Roofline = S["roofline"].get<double>();
    St.Log = S.value("log", "");
    St.Source = S.value("source", "");
    St.TwinOf = S.value("twin_of", "");
    for (const json &A : S.value("actions", json::array())) {
      Move M;
      auto Step = parseStepSpelling(A.at("step").get<std::string>());
      if (!Step)
        return Step.takeError();
      M.Scored = {std::move(*Step), A.value("prior", 1.0),
                  A.value("motivation", "")};
      M.To = A.value("to", "");
      M.Error = A.value("error", "");
      for (const json &Taken : A.value("steps", json::array())) {
        auto Link = parseStepSpelling(Taken.get<std::string>());
        if (!Link)
          return Link.takeError();
        M.Steps.push_back(std::move(*Link));
      }
      if (A.value("untried", false) && M.To.empty() && M.Error.empty())
        M.To = guessedState(Hash, M.Scored.Action);
      if (M.To.empty() == M.Error.empty())
        return bad("state " + Hash +
                   ": each action needs 'to', 'error' or 'untried'");
      St.Moves.push_back(std::move(M));
    }
    Env->States[Hash] = std::move(St);
  }
  Env->addGuessedStates();
  if (T.contains("retunes")) {
    Env->Retunes.emplace();
    for (const auto &[Made, Others] : T["retunes"].items())
      for (const json &Other : Others) {
        auto S = parseStepSpelling(Other.get<std::string>());
        if (!S)
          return S.takeError();
        (*Env->Retunes)[Made].push_back(std::move(*S));
      }
  }
  for (const auto &[Hash, St] : Env->States)
    for (const Move &M : St.Moves)
      if (!M.To.empty() && !Env->States.count(M.To))
        return bad("state " + Hash + ": action leads to unknown state " + M.To);
  if (!Env->States.count(Env->Root) ||
      Env->States[Env->Root].Status != CandidateStatus::Ok)
    return bad("the root state must exist and measure ok");
  return Env;
}

std::string SimulatedEnvironment::guessedState(llvm::StringRef From,
                                               const Step &Move) {
  return ("guess:" + From + ":" + Move.str()).str();
}

/// A move the recording never tried leads to a guess: as fast as the state
/// it starts from, with no moves of its own. A replay that relies on such
/// states says more about the guess than about the kernel.
void SimulatedEnvironment::addGuessedStates() {
  std::vector<std::pair<std::string, double>> Guesses;
  for (const auto &[Hash, St] : States)
    for (const Move &M : St.Moves)
      if (llvm::StringRef(M.To).starts_with("guess:") && !States.count(M.To))
        Guesses.push_back({M.To, St.TimeNs > 0 ? St.TimeNs : 1.0});
  for (const auto &[Hash, TimeNs] : Guesses) {
    State G;
    G.TimeNs = TimeNs;
    States.try_emplace(Hash, std::move(G));
  }
}

llvm::Expected<std::vector<ScoredAction>>
SimulatedEnvironment::actions(const StateView &S) {
  auto It = States.find(S.Hash.str());
  if (It == States.end())
    return bad("unknown state " + S.Hash);
  std::vector<ScoredAction> Out;
  for (const Move &M : It->second.Moves)
    Out.push_back(M.Scored);
  return Out;
}

llvm::Expected<AppliedMove>
SimulatedEnvironment::apply(const Trace &From, llvm::StringRef FromHash,
                            const Step &Next) {
  auto It = States.find(FromHash.str());
  if (It == States.end())
    return makeError(ErrorKind::Internal, "unknown state " + FromHash);
  std::string Spelling = Next.str();
  for (const Move &M : It->second.Moves) {
    if (M.Scored.Action.str() != Spelling)
      continue;
    if (M.To.empty())
      return makeError(llvm::StringRef(M.Error).starts_with("illegal")
                           ? ErrorKind::Illegal
                           : ErrorKind::NotApplicable,
                       M.Error);
    return AppliedMove{M.To, M.Steps.empty() ? Trace{Next} : M.Steps};
  }
  return makeError(ErrorKind::NotApplicable,
                   Spelling + " is not recorded at state " + FromHash);
}

std::vector<Step> SimulatedEnvironment::retunes(const Step &Paid) {
  if (Retunes) {
    auto It = Retunes->find(Paid.str());
    return It == Retunes->end() ? std::vector<Step>() : It->second;
  }
  std::vector<Step> Out;
  if (Paid.Params.items().empty())
    return Out;
  std::set<std::string> Seen = {Paid.str()};
  for (const auto &[Name, S] : States)
    for (const Move &M : S.Moves) {
      const Step &Other = M.Scored.Action;
      if (Other.Transform == Paid.Transform && Other.Site == Paid.Site &&
          Seen.insert(Other.str()).second)
        Out.push_back(Other);
    }
  return Out;
}

std::optional<std::string>
SimulatedEnvironment::sourceText(llvm::StringRef Hash) {
  auto It = States.find(Hash.str());
  if (It == States.end() || It->second.Source.empty())
    return std::nullopt;
  return It->second.Source;
}

double SimulatedEnvironment::jitter(llvm::StringRef Hash,
                                    unsigned Repetition) const {
  uint64_t H = 1469598103934665603ull; // FNV-1a: portable, unlike std::hash.
  for (char C : Hash)
    H = (H ^ uint8_t(C)) * 1099511628211ull;
  std::mt19937_64 Rng(Seed ^ H ^ (uint64_t(Repetition) << 32));
  return double(Rng() >> 11) / double(1ull << 53) * 2 - 1;
}

Measurement SimulatedEnvironment::measure(const Candidate &C) {
  // A recorded twin whose code was measured here already is answered as
  // the GPU's measurer answers it: that measurement, no GPU time.
  if (auto It = States.find(C.Hash); It != States.end()) {
    const std::string &Twin = It->second.TwinOf;
    auto Done = Counts.find(Twin);
    if (!Twin.empty() && Done != Counts.end() && Done->second > 0) {
      Measurement M = recorded(Twin, Done->second - 1);
      M.Cached = true;
      M.TwinOf = Twin;
      ++Counts[C.Hash];
      return M;
    }
  }
  Clock += SecondsPerCandidate;
  ++Measured;
  unsigned Repetition = Counts[C.Hash]++;
  return recorded(C.Hash, Repetition);
}

Measurement SimulatedEnvironment::recorded(const std::string &Hash,
                                           unsigned Repetition) {
  Measurement M;
  auto It = States.find(Hash);
  if (It == States.end()) {
    M.Log = "state " + Hash + " is not recorded";
    return M;
  }
  const State &S = It->second;
  M.Status = S.Status;
  M.Log = S.Log;
  if (!M.ok())
    return M;
  M.Speedup =
      States[Root].TimeNs / S.TimeNs * (1 + Noise * jitter(Hash, Repetition));
  M.Noise = Noise;
  M.Threshold = std::max(Noise, 0.01);
  M.Significant = std::abs(M.Speedup - 1) > M.Threshold;
  M.ReferenceTimeNs = States[Root].TimeNs;
  M.TimeNs = M.ReferenceTimeNs / M.Speedup;
  M.RooflineFraction = S.Roofline;
  return M;
}

unsigned SimulatedEnvironment::timesMeasured(llvm::StringRef Hash) const {
  auto It = Counts.find(Hash.str());
  return It == Counts.end() ? 0 : It->second;
}

double SimulatedEnvironment::recordedSpeedup(llvm::StringRef Hash) const {
  auto It = States.find(Hash.str());
  if (It == States.end() || It->second.Status != CandidateStatus::Ok)
    return 0;
  return States.at(Root).TimeNs / It->second.TimeNs;
}

std::string SimulatedEnvironment::bestState() const {
  std::string Best = Root;
  for (const auto &[Hash, S] : States)
    if (S.Status == CandidateStatus::Ok && S.TimeNs < States.at(Best).TimeNs)
      Best = Hash;
  return Best;
}
