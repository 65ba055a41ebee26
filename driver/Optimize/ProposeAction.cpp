//===- ProposeAction.cpp - --propose -------------------------------------===//
//
// Wires the LLM layer to a file: the chat client for the configured
// provider behind the database's cache and budget, the `propose` prompt,
// the static validator (with nvcc, no GPU), and the listing.
//
//===----------------------------------------------------------------------===//

#include "driver/Optimize/ProposeAction.h"
#include "driver/Search/LlmSession.h"
#include "driver/Search/RecordedProfile.h"
#include "optiml/DB/Database.h"
#include "optiml/Eval/Builder.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/JsonText.h"
#include "optiml/Support/OutputPath.h"
#include "transforms/RegisterTransforms.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

using namespace optiml;

/// `<stem>.<kernel>.llm<N>.cu` in \p Dir for the accepted edits and
/// proposals.json beside them.
static llvm::Error writeProposals(llvm::StringRef Dir, llvm::StringRef File,
                                  llvm::StringRef Kernel,
                                  const ProposalBatch &B,
                                  nlohmann::json &Listing) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return makeError(ErrorKind::BadInput,
                     "cannot create " + Dir + ": " + EC.message());
  llvm::StringRef Stem = llvm::sys::path::stem(File);
  std::string Safe = Kernel.str();
  std::replace(Safe.begin(), Safe.end(), ':', '_');
  for (size_t I = 0; I < B.Proposals.size(); ++I) {
    const Proposal &P = B.Proposals[I];
    if (!P.Accepted || P.Raw.Kind != ProposalKind::Edit)
      continue;
    std::string Name =
        (Stem + "." + Safe + ".llm" + llvm::Twine(I + 1) + ".cu").str();
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Name);
    if (llvm::Error E = writeOutputFile(Path, P.Result->text()))
      return E;
    Listing["proposals"][I]["file"] = Name;
  }
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "proposals.json");
  return writeOutputFile(Path, jsonText(Listing) + "\n");
}

static nlohmann::json listing(const ProposalBatch &B, llvm::StringRef File,
                              const KernelSource &Source,
                              llvm::StringRef Kernel) {
  nlohmann::json Proposals = nlohmann::json::array();
  for (const Proposal &P : B.Proposals)
    Proposals.push_back(toJSON(P));
  return {{"file", File.str()},
          {"kernel", Kernel.str()},
          {"source_hash", Source.hash().str()},
          {"model", B.Model},
          {"prompt_version", B.PromptVersion},
          {"mode", B.Mode},
          {"tokens_in", B.TokensIn},
          {"tokens_out", B.TokensOut},
          {"cost", B.Cost},
          {"seconds", B.Seconds},
          {"cached", B.Cached},
          {"notes", B.Notes},
          {"proposals", Proposals}};
}

static void printText(const ProposalBatch &B, llvm::StringRef Kernel,
                      llvm::raw_ostream &Out) {
  Out << Kernel << ": " << B.Proposals.size() << " proposal"
      << (B.Proposals.size() == 1 ? "" : "s") << " from " << B.Model
      << " (prompt " << B.PromptVersion << ", " << B.TokensIn << " tokens in, "
      << B.TokensOut << " out, " << llvm::format("%.1f s", B.Seconds)
      << (B.Cached ? ", from the cache" : "") << ")\n";
  for (size_t I = 0; I < B.Proposals.size(); ++I) {
    const Proposal &P = B.Proposals[I];
    Out << "[" << I + 1 << "] " << toString(P.Raw.Kind);
    if (P.Raw.Kind == ProposalKind::Structured)
      Out << " " << (P.Step.empty() ? P.Raw.Action : P.Step);
    Out << ": " << (P.Accepted ? "accepted" : "rejected");
    if (!P.Reason.empty())
      Out << ": " << P.Reason;
    if (!P.SameAsStep.empty())
      Out << " (the same as " << P.SameAsStep << ")";
    Out << llvm::format(" (confidence %.2f)\n", P.Raw.Confidence);
    if (!P.Raw.Rationale.empty())
      Out << "    why: " << P.Raw.Rationale << "\n";
    if (P.Accepted)
      Out << P.Diff;
  }
}

llvm::Expected<int> ProposeAction::propose(llvm::StringRef File,
                                           const ProposeOptions &Options,
                                           OutputFormat Format) {
  if (!Options.Llm.enabled())
    return makeError(ErrorKind::BadInput,
                     "--propose needs a model: --llm=openai or "
                     "--llm=anthropic, with --llm-model (see README)");
  if (Options.Count < 1 || Options.Count > 32)
    return makeError(ErrorKind::BadInput,
                     "-n " + llvm::Twine(Options.Count) + " is outside 1..32");
  if (!Options.OutputDir.empty())
    if (llvm::Error E = checkOutputFolder(Options.OutputDir, "-o"))
      return E;
  auto Inv = inventoryOf(File);
  if (!Inv)
    return Inv.takeError();
  auto Chosen = selectOne(*Inv, Options.Kernel);
  if (!Chosen)
    return Chosen.takeError();
  const KernelInfo &Kernel = **Chosen;
  auto Source = KernelSource::fromFile(File);
  if (!Source)
    return Source.takeError();
  // The spec sizes the profile's launch; a kernel without one is fine here.
  std::optional<KernelSpec> Spec;
  if (auto S = loadKernelSpec(Kernel, File, Options.SpecPath))
    Spec.emplace(std::move(*S));
  else
    llvm::consumeError(S.takeError());

  SourceParser Parser(DB, Toolchain);
  auto Parsed = Parser.parse(*Source);
  if (!Parsed)
    return Parsed.takeError();
  BuildOptions BO;
  BO.Arch = Options.Arch.empty() ? "sm_90" : Options.Arch;
  BO.ExtraFlags = Options.NvccFlags;
  auto B = Builder::create(BO);
  if (!B)
    return B.takeError();
  auto Db = openDatabaseAt(Options.DbPath);
  if (!Db)
    return Db.takeError();
  auto Profile = RecordedProfile::find(*Db, *Source, Kernel,
                                       Spec ? &*Spec : nullptr, BO.Arch);
  if (!Profile)
    return Profile.takeError();
  TransformRegistry Registry = makeTransformRegistry();
  auto Session = LlmSession::forEndpoint(Options.Llm, *Db, Registry, Parser,
                                         &*B, ToolPath);
  if (!Session)
    return Session.takeError();
  ProposalContext C{**Parsed,
                    Kernel.QualifiedName,
                    writtenSpec(Kernel, File, Options.SpecPath),
                    Profile->Device,
                    Profile->Bottleneck,
                    Profile->Findings,
                    /*Trajectory=*/{},
                    Options.Count};
  auto Batch = (*Session)->proposer().propose(C);
  if (!Batch)
    return Batch.takeError();

  for (const std::string &N : Batch->Notes)
    Err << "clang-optiml: warning: " << N << "\n";
  nlohmann::json J = listing(*Batch, File, *Source, Kernel.QualifiedName);
  if (!Options.OutputDir.empty())
    if (llvm::Error E = writeProposals(Options.OutputDir, File,
                                       Kernel.QualifiedName, *Batch, J))
      return E;
  if (Format == OutputFormat::JSON)
    Out << jsonText(J) << "\n";
  else
    printText(*Batch, Kernel.QualifiedName, Out);
  return ExitOK;
}
