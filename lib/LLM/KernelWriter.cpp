//===- KernelWriter.cpp - a model writes kernels from a description ------===//

#include "optiml/LLM/KernelWriter.h"

#include <algorithm>

using namespace optiml;

static const char *const TemplateNames[] = {
    "fromprompt-interface", "fromprompt-strategies", "fromprompt-reference",
    "fromprompt-kernel", "fromprompt-repair"};

llvm::Expected<KernelWriter> KernelWriter::load(ChatClient &Client,
                                                const PromptLibrary &Prompts,
                                                double Temperature,
                                                unsigned MaxTokens) {
  std::map<std::string, PromptTemplate> T;
  for (const char *Name : TemplateNames) {
    auto P = Prompts.load(Name);
    if (!P)
      return P.takeError();
    T.emplace(Name, std::move(*P));
  }
  return KernelWriter(Client, std::move(T), Temperature, MaxTokens);
}

llvm::Expected<ChatExchange>
KernelWriter::ask(llvm::StringRef Template,
                  const std::map<std::string, std::string> &V, unsigned Sample,
                  std::optional<nlohmann::json> Schema) {
  auto Rendered = Templates.at(Template.str()).render(V);
  if (!Rendered)
    return Rendered.takeError();
  ChatExchange X;
  X.Request.System = Rendered->System;
  X.Request.User = Rendered->User;
  X.Request.PromptVersion = Rendered->Version;
  // Later samples run hotter so that independent kernels differ (as the
  // search's LLM rounds do).
  X.Request.Temperature = std::min(Temperature + 0.3 * Sample, 1.5);
  X.Request.MaxTokens = MaxTokens;
  X.Request.Sample = Sample;
  X.Request.Schema = std::move(Schema);
  X.Request.SchemaName = "answer";
  auto A = Client.complete(X.Request);
  if (!A)
    return A.takeError();
  X.Answer = std::move(*A);
  ++Answered.Calls;
  Answered.CacheHits += X.Answer.Cached;
  Answered.TokensIn += X.Answer.TokensIn;
  Answered.TokensOut += X.Answer.TokensOut;
  Answered.Cost += X.Answer.Cost;
  Answered.Seconds += X.Answer.Seconds;
  return X;
}

llvm::Expected<ChatExchange>
KernelWriter::interface(llvm::StringRef Description, llvm::StringRef Name) {
  std::string Rule = Name.empty()
                         ? "Choose a short C identifier as the kernel's name."
                         : "The kernel must be named `" + Name.str() + "`.";
  return ask("fromprompt-interface",
             {{"description", Description.str()}, {"name_rule", Rule}}, 0,
             FromPromptAnswer::interfaceSchema());
}

llvm::Expected<ChatExchange>
KernelWriter::strategies(llvm::StringRef Description, llvm::StringRef Interface,
                         unsigned Count) {
  return ask("fromprompt-strategies",
             {{"description", Description.str()},
              {"interface", Interface.str()},
              {"count", std::to_string(Count)}},
             0, FromPromptAnswer::strategiesSchema());
}

llvm::Expected<ChatExchange>
KernelWriter::reference(llvm::StringRef Description, llvm::StringRef Interface,
                        llvm::StringRef Kernel, unsigned Attempt) {
  std::string Note =
      Attempt == 0
          ? ""
          : "\nAn earlier reference for this description (attempt " +
                std::to_string(Attempt) +
                ") computed other outputs than independently written "
                "kernels on the GPU. Write it again from the description, "
                "checking every index, bound and formula.\n";
  return ask("fromprompt-reference",
             {{"description", Description.str()},
              {"interface", Interface.str()},
              {"kernel_name", Kernel.str()},
              {"note", Note}},
             Attempt, FromPromptAnswer::kernelSchema());
}

llvm::Expected<ChatExchange>
KernelWriter::kernel(llvm::StringRef Description, llvm::StringRef Interface,
                     llvm::StringRef Kernel, const Strategy &S, unsigned Index,
                     unsigned Count) {
  return ask("fromprompt-kernel",
             {{"description", Description.str()},
              {"interface", Interface.str()},
              {"kernel_name", Kernel.str()},
              {"strategy_index", std::to_string(Index + 1)},
              {"count", std::to_string(Count)},
              {"strategy_name", S.Name},
              {"strategy_plan", S.Plan}},
             Index, FromPromptAnswer::kernelSchema());
}

llvm::Expected<ChatExchange> KernelWriter::repair(const ChatExchange &Refused,
                                                  llvm::StringRef Error) {
  return ask("fromprompt-repair",
             {{"system", Refused.Request.System},
              {"request", Refused.Request.User},
              {"answer", Refused.Answer.Text},
              {"error", Error.str()}},
             Refused.Request.Sample, Refused.Request.Schema);
}
