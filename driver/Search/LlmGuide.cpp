//===- LlmGuide.cpp - a proposer's say in the search ---------------------===//

#include "driver/Search/LlmGuide.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>

using namespace optiml;

llvm::Expected<LlmPolicy> optiml::parseLlmPolicy(llvm::StringRef Text) {
  if (Text == "expand")
    return LlmPolicy::Expand;
  if (Text == "prior")
    return LlmPolicy::Prior;
  if (Text == "both")
    return LlmPolicy::Both;
  return makeError(ErrorKind::BadInput, "unknown --llm-policy '" + Text +
                                            "' (choose expand, prior or both)");
}

/// How many failures elsewhere in the search the next prompt hears about.
static constexpr size_t FailuresKept = 6;

/// "1.18x over the original", "verify_failed: outputs differ at [12]".
static std::string outcomeOf(const Measurement &M) {
  if (M.ok()) {
    std::string S = llvm::formatv("{0:F2}x over the original", M.Speedup);
    if (!M.Significant)
      S += " (inside the noise: no change)";
    return S;
  }
  llvm::StringRef Why = llvm::StringRef(M.Log).trim();
  Why = Why.take_until([](char C) { return C == '\n'; }).take_front(200);
  return toString(M.Status).str() + (Why.empty() ? "" : ": " + Why.str());
}

std::string LlmGuide::spell(const Step &S) const {
  if (S.Transform != EditStepName)
    return S.str();
  auto It = Edits.find(S.Params.get("id"));
  if (It == Edits.end() || It->second.Rationale.empty())
    return "a free-form edit of the kernel";
  return "a free-form edit of the kernel (" + It->second.Rationale + ")";
}

void LlmGuide::observe(const Trace &Steps, const Measurement &Result) {
  std::string Outcome = outcomeOf(Result);
  Outcomes[toString(Steps)] = Outcome;
  if (Result.ok() || Steps.empty())
    return;
  Failures.push_back({spell(Steps.back()), Outcome});
  if (Failures.size() > FailuresKept)
    Failures.pop_front();
}

/// The path to the state with what each step did, then the latest failures
/// elsewhere: what not to propose again.
std::vector<TrajectoryEntry> LlmGuide::trajectory(const Trace &Steps) const {
  std::vector<TrajectoryEntry> Out;
  Trace Prefix;
  for (const Step &S : Steps) {
    Prefix.push_back(S);
    auto It = Outcomes.find(toString(Prefix));
    Out.push_back(
        {spell(S), It == Outcomes.end() ? "not measured yet" : It->second});
  }
  for (const TrajectoryEntry &F : Failures)
    Out.push_back({"(tried elsewhere) " + F.Step, F.Outcome});
  return Out;
}

/// One round; nothing when the proposer could not answer, after which the
/// guide stays silent.
std::optional<ProposalBatch> LlmGuide::ask(const ProposalContext &C) {
  auto B = P.propose(C);
  if (!B) {
    std::string Why = llvm::toString(B.takeError());
    Log << "clang-optiml: warning: the model could not be asked: " << Why
        << "; the search goes on with the heuristic policy\n";
    Usage.Notes.push_back("the model fell silent: " + Why +
                          "; the search went on with the heuristic policy");
    Silenced = true;
    return std::nullopt;
  }
  ++Usage.Calls;
  Usage.CachedCalls += B->Cached;
  Usage.TokensIn += B->TokensIn;
  Usage.TokensOut += B->TokensOut;
  Usage.Cost += B->Cost;
  Usage.Seconds += B->Seconds;
  if (!B->Model.empty())
    Usage.Model = B->Model;
  if (!B->PromptVersion.empty())
    Usage.PromptVersion = B->PromptVersion;
  for (const std::string &N : B->Notes)
    Usage.Notes.push_back(N);
  return std::move(*B);
}

/// The move an accepted proposal stands for. An edit that equals a
/// structured step is that step: it replays without the model's code.
std::optional<Step> LlmGuide::moveOf(const Proposal &Prop) {
  std::string Spelling =
      Prop.Raw.Kind == ProposalKind::Structured ? Prop.Step : Prop.SameAsStep;
  if (!Spelling.empty()) {
    auto S = parseStepSpelling(Spelling);
    if (S)
      return *S;
    llvm::consumeError(S.takeError());
    return std::nullopt;
  }
  std::string Id = llvm::utohexstr(llvm::xxh3_64bits(Prop.Raw.Code),
                                   /*LowerCase=*/true, /*Width=*/16);
  Edits[Id] = {Prop.Raw.Code, Prop.Raw.Rationale};
  Step S;
  S.Transform = EditStepName.str();
  S.Site = Kernel;
  S.Params.set("id", Id);
  return S;
}

void LlmGuide::collect(const ProposalBatch &B, std::vector<Pick> &Picks) {
  std::string Call = llvm::formatv(
      "{0} (prompt {1}; its call: {2} tokens in, {3} out, cost {4:F4}{5})",
      B.Model.empty() ? "the model" : B.Model, B.PromptVersion, B.TokensIn,
      B.TokensOut, B.Cost, B.Cached ? ", from the database" : "");
  for (const Proposal &Prop : B.Proposals) {
    ++Usage.Proposals;
    if (!Prop.Accepted) {
      Usage.Notes.push_back(
          toString(Prop.Raw.Kind).str() + " proposal " +
          (Prop.Raw.Action.empty() ? "" : "'" + Prop.Raw.Action + "' ") +
          "dropped: " + Prop.Reason);
      continue;
    }
    std::optional<Step> Move = moveOf(Prop);
    if (!Move)
      continue;
    ++Usage.Accepted;
    std::string Why =
        Prop.Raw.Rationale.empty() ? "no rationale given" : Prop.Raw.Rationale;
    Picks.push_back({std::move(*Move),
                     std::clamp(Prop.Raw.Confidence, 0.0, 1.0),
                     "the language model " + Call + ": " + Why});
  }
}

/// Listed moves the model picked get a share of Weight of the prior mass,
/// by confidence; moves the listing lacks join it (policies that expand).
void LlmGuide::merge(std::vector<Pick> Picks,
                     std::vector<ScoredAction> &Moves) const {
  bool Boost = Options.Policy != LlmPolicy::Expand;
  bool Expand = Options.Policy != LlmPolicy::Prior;
  auto ListedAt = [&](const Pick &K) {
    std::string Spelling = K.Move.str();
    return llvm::find_if(Moves, [&](const ScoredAction &A) {
      return A.Action.str() == Spelling;
    });
  };
  if (!Expand)
    llvm::erase_if(Picks,
                   [&](const Pick &K) { return ListedAt(K) == Moves.end(); });
  double Heuristic = 0;
  for (const ScoredAction &A : Moves)
    Heuristic += std::max(0.0, A.Prior);
  if (Heuristic <= 0)
    Heuristic = 1;
  double Mean = Moves.empty() ? 1 : Heuristic / Moves.size();
  double Confidence = 0;
  for (const Pick &K : Picks)
    Confidence += std::max(K.Confidence, 0.05);
  for (Pick &K : Picks) {
    double Share = Options.Weight / (1 - Options.Weight) * Heuristic *
                   std::max(K.Confidence, 0.05) / Confidence;
    auto Listed = ListedAt(K);
    if (Listed == Moves.end()) {
      Moves.push_back(
          {std::move(K.Move), Boost ? Share : Mean, std::move(K.Motivation)});
    } else if (Boost) {
      Listed->Prior += Share;
      Listed->Motivation = std::move(K.Motivation);
    }
  }
}

void LlmGuide::guide(ParsedSource &State, const Trace &Steps,
                     const StateFacts &Facts,
                     std::vector<ScoredAction> &Moves) {
  if (Silenced)
    return;
  std::vector<Pick> Picks;
  for (unsigned Sample = 0; Sample < Options.Samples; ++Sample) {
    ProposalContext C{State,
                      Kernel,
                      SpecText,
                      Facts.Device,
                      Facts.Bottleneck,
                      Facts.Findings,
                      trajectory(Steps),
                      Options.Count,
                      Sample};
    std::optional<ProposalBatch> B = ask(C);
    if (!B)
      break;
    collect(*B, Picks);
  }
  // The same move from two samples counts once, at its best confidence.
  std::vector<Pick> Unique;
  for (Pick &K : Picks) {
    auto Same = llvm::find_if(
        Unique, [&](const Pick &U) { return U.Move.str() == K.Move.str(); });
    if (Same == Unique.end())
      Unique.push_back(std::move(K));
    else
      Same->Confidence = std::max(Same->Confidence, K.Confidence);
  }
  merge(std::move(Unique), Moves);
}

llvm::Expected<KernelSource> LlmGuide::applyEdit(ParsedSource &From,
                                                 const Step &Edit) const {
  llvm::StringRef Id = Edit.Params.get("id");
  auto It = Edits.find(Id);
  if (It == Edits.end())
    return makeError(ErrorKind::NotApplicable,
                     "edit " + Id + " is not among this run's proposals");
  RawProposal R;
  R.Kind = ProposalKind::Edit;
  R.Code = It->second.Code;
  Proposal Judged = Validator.validate(R, From, Kernel);
  if (!Judged.Accepted)
    return makeError(ErrorKind::Illegal,
                     "edit " + Id + " does not fit here: " + Judged.Reason);
  return *Judged.Result;
}
