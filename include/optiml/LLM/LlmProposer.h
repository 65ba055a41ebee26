//===- LlmProposer.h - proposals from a language model ---------*- C++ -*-===//
//
// One round: render the `propose` prompt for the state, ask the chat
// client (normally the recording one: cache, accounting, budget), read the
// answer leniently and validate each proposal statically. What the model
// said that could not be used is kept as a rejected proposal or a note;
// only a missing answer is an error.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_LLMPROPOSER_H
#define OPTIML_LLM_LLMPROPOSER_H

#include "optiml/LLM/ChatClient.h"
#include "optiml/LLM/PromptTemplate.h"
#include "optiml/LLM/ProposalValidator.h"
#include "optiml/LLM/Proposer.h"

namespace optiml {

class LlmProposer : public Proposer {
public:
  LlmProposer(ChatClient &Client, PromptTemplate Prompt,
              const TransformRegistry &Registry,
              const ProposalValidator &Validator, double Temperature,
              unsigned MaxTokens)
      : Client(Client), Prompt(std::move(Prompt)), Registry(Registry),
        Validator(Validator), Temperature(Temperature), MaxTokens(MaxTokens) {}

  llvm::Expected<ProposalBatch> propose(const ProposalContext &C) override;

  /// The request one round sends for \p C (what the cache key is over).
  llvm::Expected<ChatRequest> request(const ProposalContext &C) const;

private:
  ChatClient &Client;
  PromptTemplate Prompt;
  const TransformRegistry &Registry;
  const ProposalValidator &Validator;
  double Temperature;
  unsigned MaxTokens;
};

} // namespace optiml

#endif // OPTIML_LLM_LLMPROPOSER_H
