//===- LlmProposer.cpp - proposals from a language model -----------------===//

#include "optiml/LLM/LlmProposer.h"
#include "optiml/LLM/AnswerParser.h"
#include "optiml/LLM/ProposalPrompt.h"
#include "optiml/LLM/ProposalSchema.h"

#include <algorithm>

using namespace optiml;

Proposer::~Proposer() = default;

llvm::Expected<ChatRequest>
LlmProposer::request(const ProposalContext &C) const {
  // The same legal actions in the prompt's list and in the schema that
  // endpoints enforce.
  std::vector<Action> Actions =
      ActionSpace::enumerate(Registry, C.State, C.Kernel);
  nlohmann::json Schema =
      ProposalSchema::forActions(Actions, Registry, std::max(C.Count, 1u));
  auto Rendered =
      Prompt.render(ProposalPrompt::variables(C, Registry, Actions, Schema));
  if (!Rendered)
    return Rendered.takeError();
  ChatRequest R;
  R.System = Rendered->System;
  R.User = Rendered->User;
  R.PromptVersion = Rendered->Version;
  // Later samples of one prompt run hotter, so that they differ.
  R.Temperature = std::min(Temperature + 0.3 * C.Sample, 1.5);
  R.MaxTokens = MaxTokens;
  R.Sample = C.Sample;
  R.Schema = std::move(Schema);
  R.SchemaName = "proposals";
  return R;
}

llvm::Expected<ProposalBatch> LlmProposer::propose(const ProposalContext &C) {
  auto R = request(C);
  if (!R)
    return R.takeError();
  auto A = Client.complete(*R);
  if (!A)
    return A.takeError();
  ProposalBatch B;
  // An answer cut off at the token limit is no answer: ask once more with
  // twice the room before parsing what arrived.
  if (A->truncated()) {
    ChatRequest Longer = *R;
    Longer.MaxTokens = 2 * R->MaxTokens;
    auto Again = Client.complete(Longer);
    if (!Again)
      return Again.takeError();
    B.Notes.push_back(
        "the answer was cut off at " + std::to_string(R->MaxTokens) +
        " tokens; asked again with " + std::to_string(Longer.MaxTokens));
    Again->TokensIn += A->TokensIn;
    Again->TokensOut += A->TokensOut;
    Again->Cost += A->Cost;
    Again->Seconds += A->Seconds;
    Again->Cached = Again->Cached && A->Cached;
    A = std::move(Again);
  }
  B.Model = A->Model.empty() ? Client.model() : A->Model;
  B.PromptVersion = R->PromptVersion;
  B.TokensIn = A->TokensIn;
  B.TokensOut = A->TokensOut;
  B.Cost = A->Cost;
  B.Seconds = A->Seconds;
  B.Cached = A->Cached;
  B.Mode = A->Cached ? "cached" : A->Mode;
  if (!A->SchemaRefused.empty())
    B.Notes.push_back("the endpoint refused the answer's JSON schema (" +
                      A->SchemaRefused +
                      "); asked with the prompt alone, as it will be from "
                      "now on for this model");
  ParsedAnswer Parsed = AnswerParser::parse(A->Text, A->truncated());
  B.Notes.insert(B.Notes.end(), Parsed.Notes.begin(), Parsed.Notes.end());
  // Each one judged costs a parse and an nvcc build: only those asked for.
  if (C.Count && Parsed.Proposals.size() > C.Count) {
    B.Notes.push_back("the answer holds " +
                      std::to_string(Parsed.Proposals.size()) +
                      " proposals; the first " + std::to_string(C.Count) +
                      " asked for are judged");
    Parsed.Proposals.resize(C.Count);
  }
  for (const RawProposal &P : Parsed.Proposals)
    B.Proposals.push_back(Validator.validate(P, C.State, C.Kernel));
  return B;
}
