//===- LlmSession.cpp - the objects one run's proposer needs -------------===//

#include "driver/Search/LlmSession.h"
#include "optiml/LLM/DirectoryProposer.h"
#include "optiml/LLM/HttpChatClient.h"
#include "optiml/LLM/LlmProposer.h"
#include "optiml/LLM/PromptLibrary.h"
#include "optiml/LLM/RecordingChatClient.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace optiml;

std::string optiml::writtenSpec(const KernelInfo &K, llvm::StringRef File,
                                llvm::StringRef SpecPath) {
  if (K.Mark)
    return "#pragma optiml " + K.Mark->Clauses;
  std::string Path =
      SpecPath.empty() ? (File + ".optiml.json").str() : SpecPath.str();
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : "";
}

llvm::Expected<std::unique_ptr<LlmSession>> LlmSession::forEndpoint(
    const LlmConfig &Config, Database &Db, const TransformRegistry &Registry,
    const SourceParser &Parser, const Builder *Build, const char *Argv0) {
  std::unique_ptr<LlmSession> S(new LlmSession());
  S->Config = Config;
  auto Prompt =
      PromptLibrary::locate(S->Config.PromptsDir, Argv0).load("propose");
  if (!Prompt)
    return Prompt.takeError();
  S->Endpoint = std::make_unique<HttpChatClient>(
      S->Config, S->Config.Provider == LlmProvider::Anthropic
                     ? anthropicDialect()
                     : openAiDialect());
  S->Recording =
      std::make_unique<RecordingChatClient>(S->Config, S->Endpoint.get(), Db);
  S->Validator = std::make_unique<ProposalValidator>(Registry, Parser, Build);
  S->Propose = std::make_unique<LlmProposer>(
      *S->Recording, std::move(*Prompt), Registry, *S->Validator,
      S->Config.Temperature, S->Config.MaxTokens);
  return S;
}

llvm::Expected<std::unique_ptr<LlmSession>>
LlmSession::fromDirectory(llvm::StringRef Dir, llvm::StringRef Kernel,
                          const TransformRegistry &Registry,
                          const SourceParser &Parser) {
  std::unique_ptr<LlmSession> S(new LlmSession());
  S->Validator = std::make_unique<ProposalValidator>(Registry, Parser, nullptr);
  auto P = DirectoryProposer::load(Dir, Kernel, *S->Validator);
  if (!P)
    return P.takeError();
  S->Propose = std::make_unique<DirectoryProposer>(std::move(*P));
  return S;
}

LlmGuide &LlmSession::guide(std::string Kernel, std::string SpecText,
                            LlmGuideOptions Options, llvm::raw_ostream &Log) {
  Guide = std::make_unique<LlmGuide>(*Propose, *Validator, std::move(Kernel),
                                     std::move(SpecText), Options, Log);
  return *Guide;
}
