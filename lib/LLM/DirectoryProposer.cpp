//===- DirectoryProposer.cpp - proposals made earlier, elsewhere ---------===//

#include "optiml/LLM/DirectoryProposer.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

using namespace optiml;

static llvm::Error bad(llvm::StringRef Path, const llvm::Twine &Why) {
  return makeError(ErrorKind::BadInput, Path + ": " + Why);
}

/// One accepted entry of the listing as the model's raw proposal; nothing
/// (and a note) when the entry lacks what applying it needs.
static std::optional<RawProposal> rawOf(const nlohmann::json &E, size_t Index,
                                        std::vector<std::string> &Notes) {
  RawProposal R;
  std::string Kind = E.value("kind", "");
  R.Confidence = E.value("confidence", 0.5);
  R.Rationale = E.value("rationale", "");
  if (Kind == "structured") {
    R.Kind = ProposalKind::Structured;
    R.Action = E.value("step", "");
  } else if (Kind == "edit") {
    R.Kind = ProposalKind::Edit;
    R.Code = E.value("code", "");
    R.Launch = E.value("launch", "");
  }
  if ((Kind == "structured" && !R.Action.empty()) ||
      (Kind == "edit" && !R.Code.empty()))
    return R;
  Notes.push_back("proposal " + std::to_string(Index + 1) +
                  " of the listing has no " +
                  (Kind == "edit" ? "code" : "step") + ": skipped");
  return std::nullopt;
}

llvm::Expected<DirectoryProposer>
DirectoryProposer::load(llvm::StringRef Dir, llvm::StringRef Kernel,
                        const ProposalValidator &Validator) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "proposals.json");
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return bad(Path, Buffer.getError().message() +
                         " (--proposals-from wants the folder that "
                         "--propose -o wrote)");
  nlohmann::json J = nlohmann::json::parse((*Buffer)->getBuffer().str(),
                                           nullptr, /*allow_exceptions=*/false);
  if (!J.is_object() || !J.contains("proposals") || !J["proposals"].is_array())
    return bad(Path, "not a --propose listing (no \"proposals\" array)");
  std::string For = J.value("kernel", "");
  if (For != Kernel)
    return bad(Path, "the proposals are for kernel '" + For + "', not '" +
                         Kernel + "'");
  DirectoryProposer P(Validator);
  P.Dir = Dir.str();
  P.SourceHash = J.value("source_hash", "");
  P.Model = J.value("model", "");
  P.PromptVersion = J.value("prompt_version", "");
  unsigned Rejected = 0;
  const nlohmann::json &List = J["proposals"];
  for (size_t I = 0; I < List.size(); ++I) {
    if (!List[I].is_object() || List[I].value("status", "") != "accepted") {
      ++Rejected;
      continue;
    }
    if (auto R = rawOf(List[I], I, P.Notes))
      P.Raw.push_back(std::move(*R));
  }
  if (Rejected)
    P.Notes.push_back(std::to_string(Rejected) +
                      " proposal(s) of the listing were rejected when they "
                      "were made: not carried");
  return P;
}

llvm::Expected<ProposalBatch>
DirectoryProposer::propose(const ProposalContext &C) {
  ProposalBatch B;
  B.Model = Model;
  B.PromptVersion = PromptVersion;
  B.Cached = true; // Paid for when --propose asked.
  if (Answered)
    return B;
  Answered = true;
  B.Notes = Notes;
  B.Notes.insert(B.Notes.begin(), "proposals from " + Dir + " (made by " +
                                      (Model.empty() ? "a model" : Model) +
                                      ")");
  if (!SourceHash.empty() && C.State.source().hash() != SourceHash)
    B.Notes.push_back("the proposals were made on another version of the "
                      "source; each is judged again against this one");
  for (const RawProposal &R : Raw)
    B.Proposals.push_back(Validator->validate(R, C.State, C.Kernel));
  return B;
}
