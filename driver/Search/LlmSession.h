//===- LlmSession.h - the objects one run's proposer needs -----*- C++ -*-===//
//
// --propose and --optimize ask a model the same way: the endpoint's client
// behind the database's cache and budget, the `propose` prompt, and the
// static validator. --optimize adds the guide that puts the answers into
// the search, and may take recorded proposals (--proposals-from) instead of
// an endpoint. This owns them all, in the order they depend on each other.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_LLMSESSION_H
#define OPTIML_DRIVER_LLMSESSION_H

#include "driver/Search/LlmGuide.h"
#include "optiml/DB/Database.h"
#include "optiml/IR/KernelInfo.h"
#include "optiml/LLM/ChatClient.h"
#include "optiml/LLM/LlmConfig.h"
#include "optiml/LLM/RecordingChatClient.h"

#include <memory>

namespace optiml {

class Builder;
class SourceParser;
class TransformRegistry;

/// The spec as the user wrote it, for the prompt: the mark's clauses, else
/// the sidecar's text; empty when there is neither.
std::string writtenSpec(const KernelInfo &K, llvm::StringRef File,
                        llvm::StringRef SpecPath);

class LlmSession {
public:
  /// A proposer for \p Config's endpoint. \p Build, when set, compiles each
  /// accepted proposal (--propose); the search leaves that to its measurer.
  static llvm::Expected<std::unique_ptr<LlmSession>>
  forEndpoint(const LlmConfig &Config, Database &Db,
              const TransformRegistry &Registry, const SourceParser &Parser,
              const Builder *Build, const char *Argv0);

  /// A proposer that replays a --propose -o folder for \p Kernel.
  static llvm::Expected<std::unique_ptr<LlmSession>>
  fromDirectory(llvm::StringRef Dir, llvm::StringRef Kernel,
                const TransformRegistry &Registry, const SourceParser &Parser);

  Proposer &proposer() { return *Propose; }
  /// The endpoint behind the cache and budget (forEndpoint only), for
  /// questions other than proposals (--from-prompt).
  RecordingChatClient &recording() { return *Recording; }
  const ProposalValidator &validator() const { return *Validator; }

  /// Makes the guide --optimize gives the expander.
  LlmGuide &guide(std::string Kernel, std::string SpecText,
                  LlmGuideOptions Options, llvm::raw_ostream &Log);

private:
  LlmSession() = default;

  LlmConfig Config; ///< The clients refer to it.
  std::unique_ptr<ChatClient> Endpoint;
  std::unique_ptr<RecordingChatClient> Recording;
  std::unique_ptr<ProposalValidator> Validator;
  std::unique_ptr<Proposer> Propose;
  std::unique_ptr<LlmGuide> Guide;
};

} // namespace optiml

#endif // OPTIML_DRIVER_LLMSESSION_H
