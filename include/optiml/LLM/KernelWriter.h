//===- KernelWriter.h - kernels written from a description -*- C++ -*-===//
//
// The questions --from-prompt asks, one prompt template each: the
// interface (signature and spec), the strategies, the simplest reference,
// one kernel per strategy, and the repair of an answer OptiML refused. Each
// kernel is its own call, the i-th at a higher temperature than the last,
// so that the strategies are written independently; the recording client
// below makes every call cached, accounted and replayable.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_KERNELWRITER_H
#define OPTIML_LLM_KERNELWRITER_H

#include "optiml/LLM/ChatClient.h"
#include "optiml/LLM/FromPromptAnswer.h"
#include "optiml/LLM/PromptLibrary.h"
#include "optiml/LLM/RecordingChatClient.h"

#include <map>

namespace optiml {

/// One question and its answer, kept for the repair round and the report.
struct ChatExchange {
  ChatRequest Request;
  ChatAnswer Answer;
};

class KernelWriter {
public:
  /// Loads the templates from \p Prompts; a missing one is an error.
  static llvm::Expected<KernelWriter> load(ChatClient &Client,
                                           const PromptLibrary &Prompts,
                                           double Temperature,
                                           unsigned MaxTokens);

  /// \p Name empty: the model names the kernel.
  llvm::Expected<ChatExchange> interface(llvm::StringRef Description,
                                         llvm::StringRef Name);
  llvm::Expected<ChatExchange> strategies(llvm::StringRef Description,
                                          llvm::StringRef Interface,
                                          unsigned Count);
  /// \p Attempt > 0 says that an earlier reference was not trusted.
  llvm::Expected<ChatExchange> reference(llvm::StringRef Description,
                                         llvm::StringRef Interface,
                                         llvm::StringRef Kernel,
                                         unsigned Attempt);
  /// The kernel of strategy \p Index (0-based) of \p Count.
  llvm::Expected<ChatExchange> kernel(llvm::StringRef Description,
                                      llvm::StringRef Interface,
                                      llvm::StringRef Kernel, const Strategy &S,
                                      unsigned Index, unsigned Count);
  /// Asks again with \p Refused's answer and why OptiML refused it.
  llvm::Expected<ChatExchange> repair(const ChatExchange &Refused,
                                      llvm::StringRef Error);

  /// The model that answers (for the report).
  std::string model() const { return Client.model(); }
  /// Every answer used, from the database or not, with the tokens and cost
  /// it took when it was asked (the client's usage counts this run's calls
  /// only; a replay spends nothing but used the same answers).
  const LlmUsage &answered() const { return Answered; }

private:
  KernelWriter(ChatClient &Client, std::map<std::string, PromptTemplate> T,
               double Temperature, unsigned MaxTokens)
      : Client(Client), Templates(std::move(T)), Temperature(Temperature),
        MaxTokens(MaxTokens) {}
  /// Renders \p Template with \p V and asks it; the answer must follow
  /// \p Schema where the endpoint enforces one.
  llvm::Expected<ChatExchange> ask(llvm::StringRef Template,
                                   const std::map<std::string, std::string> &V,
                                   unsigned Sample,
                                   std::optional<nlohmann::json> Schema);

  ChatClient &Client;
  std::map<std::string, PromptTemplate> Templates;
  double Temperature;
  unsigned MaxTokens;
  LlmUsage Answered;
};

} // namespace optiml

#endif // OPTIML_LLM_KERNELWRITER_H
