//===- LlmProposer.cpp - proposals from a language model -----------------===//

#include "optiml/LLM/LlmProposer.h"
#include "optiml/LLM/AnswerParser.h"
#include "optiml/LLM/ProposalPrompt.h"

#include <algorithm>

using namespace optiml;

Proposer::~Proposer() = default;

llvm::Expected<ChatRequest>
LlmProposer::request(const ProposalContext &C) const {
  auto Rendered = Prompt.render(ProposalPrompt::variables(C, Registry));
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
  R.Schema = nlohmann::json::parse(AnswerParser::schema());
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
  B.Model = A->Model.empty() ? Client.model() : A->Model;
  B.PromptVersion = R->PromptVersion;
  B.TokensIn = A->TokensIn;
  B.TokensOut = A->TokensOut;
  B.Cost = A->Cost;
  B.Seconds = A->Seconds;
  B.Cached = A->Cached;
  ParsedAnswer Parsed = AnswerParser::parse(A->Text, A->truncated());
  B.Notes = std::move(Parsed.Notes);
  for (const RawProposal &P : Parsed.Proposals)
    B.Proposals.push_back(Validator.validate(P, C.State, C.Kernel));
  return B;
}
