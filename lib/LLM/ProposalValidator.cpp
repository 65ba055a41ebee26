//===- ProposalValidator.cpp - judge a proposal before any GPU -----------===//

#include "optiml/LLM/ProposalValidator.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/LLM/TransformMatcher.h"
#include "optiml/Rewrite/KernelEdit.h"
#include "optiml/Rewrite/KernelEditChecker.h"
#include "optiml/Rewrite/RawTokens.h"
#include "optiml/Search/UnifiedDiff.h"
#include "optiml/Spec/KernelSpec.h"
#include "optiml/Spec/LaunchClauses.h"
#include "optiml/Support/Error.h"
#include "optiml/Transform/Step.h"
#include "optiml/Transform/StepRunner.h"

#include "llvm/Support/Path.h"

using namespace optiml;

Proposal ProposalValidator::validate(const RawProposal &R, ParsedSource &State,
                                     llvm::StringRef Kernel) const {
  Proposal P;
  P.Raw = R;
  if (R.Kind == ProposalKind::Structured)
    structured(P, State, Kernel);
  else
    edit(P, State, Kernel);
  return P;
}

/// nvcc's first error, without the build folder's path: one line.
static std::string firstError(llvm::StringRef Log) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Log.split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (L.contains("error")) {
      llvm::StringRef Msg = L.trim();
      size_t Paren = Msg.find(".cu(");
      if (Paren != llvm::StringRef::npos)
        Msg = Msg.drop_front(Msg.rfind('/', Paren) + 1);
      return Msg.take_front(300).str();
    }
  return Log.trim().take_front(300).str();
}

std::string ProposalValidator::buildError(ParsedSource &Result,
                                          llvm::StringRef Kernel) const {
  if (!Build)
    return "";
  KernelInventory Inv = KernelFinder::find(Result.context());
  const KernelInfo *K = Inv.find(Kernel.str());
  if (!K)
    return "the result does not define kernel '" + Kernel.str() + "'";
  auto B = Build->build(Result.source(), *K);
  if (!B)
    return "it could not be built: " + llvm::toString(B.takeError());
  if (!B->Succeeded)
    return "it does not compile with nvcc: " + firstError(B->Log);
  return "";
}

void ProposalValidator::accept(Proposal &P, ParsedSource &State,
                               ParsedSource &Result,
                               llvm::StringRef Kernel) const {
  if (std::string Why = buildError(Result, Kernel); !Why.empty()) {
    P.Reason = Why;
    return;
  }
  llvm::StringRef Name = llvm::sys::path::filename(State.source().path());
  P.Diff = unifiedDiff(State.source().text(), Result.source().text(),
                       "a/" + Name.str(), "b/" + Name.str());
  P.Result.emplace(Result.source());
  P.Accepted = true;
}

void ProposalValidator::structured(Proposal &P, ParsedSource &State,
                                   llvm::StringRef Kernel) const {
  auto S = Step::parse(P.Raw.Action, Registry);
  if (!S) {
    P.Reason = llvm::toString(S.takeError());
    return;
  }
  // A step names its kernel through its site; another kernel's is not ours.
  llvm::StringRef Simple =
      Kernel.rsplit("::").second.empty() ? Kernel : Kernel.rsplit("::").second;
  llvm::StringRef SiteKernel = llvm::StringRef(S->Site).split('/').first;
  if (SiteKernel != Kernel && SiteKernel != Simple) {
    P.Reason =
        "its site '" + S->Site + "' is not in kernel '" + Kernel.str() + "'";
    return;
  }
  auto R = StepRunner(Registry, Parser).run(State, *S);
  if (!R) {
    P.Reason = llvm::toString(R.takeError());
    return;
  }
  P.Step = R->Applied.str();
  accept(P, State, *R->Parsed, Kernel);
}

/// Why an edit's launch cannot be taken.
static llvm::Error launchRefused(const llvm::Twine &Why) {
  return makeError(ErrorKind::BadInput, "its launch cannot be used: " + Why);
}

llvm::Expected<std::unique_ptr<ParsedSource>>
ProposalValidator::relaunched(ParsedSource &State, llvm::StringRef Kernel,
                              llvm::StringRef Launch) const {
  KernelInventory Inventory = KernelFinder::find(State.context());
  const KernelInfo *K = Inventory.find(Kernel.str());
  if (!K || !K->Mark)
    return launchRefused("'" + Kernel +
                         "' has no #pragma optiml mark to "
                         "carry it");
  // A launch written in the program would need its host code rewritten
  // too: only a launch that the mark alone gives is the edit's to change.
  if (!K->Launches.empty())
    return launchRefused("'" + Kernel + "' is launched in this file (line " +
                         llvm::Twine(K->Launches.front().Pos.Line) +
                         "), and an edit may change only a launch that the "
                         "kernel's mark gives");
  if (K->AddressTaken)
    return launchRefused("the address of '" + Kernel +
                         "' is taken, so it may be launched elsewhere");
  auto Clauses = withLaunch(K->Mark->Clauses, Launch);
  if (!Clauses)
    return launchRefused(llvm::toString(Clauses.takeError()));
  KernelSource Source(
      State.source().path().str(),
      withMarkClauses(State.source().text(), K->Mark->Pos.Line, *Clauses));
  auto Parsed = Parser.parse(Source);
  if (!Parsed)
    return launchRefused(llvm::toString(Parsed.takeError()));
  // The spec with its new launch must still check, on every instance.
  KernelInventory Again = KernelFinder::find((*Parsed)->context());
  const KernelInfo *K2 = Again.find(Kernel.str());
  if (!K2)
    return launchRefused("the kernel is gone after the mark changed");
  auto Spec = loadKernelSpec(*K2, Source.path(), "");
  if (!Spec)
    return launchRefused(llvm::toString(Spec.takeError()));
  if (auto Instances = Spec->instantiate(*K2); !Instances)
    return launchRefused(llvm::toString(Instances.takeError()));
  return std::move(*Parsed);
}

void ProposalValidator::edit(Proposal &P, ParsedSource &State,
                             llvm::StringRef Kernel) const {
  auto E = KernelEdit::fromCode(P.Raw.Code, Kernel);
  if (!E) {
    P.Reason = llvm::toString(E.takeError());
    return;
  }
  // An edit with a launch applies to the state with that launch in its
  // mark, and is checked against that state.
  std::unique_ptr<ParsedSource> Relaunched;
  if (!llvm::StringRef(P.Raw.Launch).trim().empty()) {
    auto R = relaunched(State, Kernel, P.Raw.Launch);
    if (!R) {
      P.Reason = llvm::toString(R.takeError());
      return;
    }
    Relaunched = std::move(*R);
  }
  ParsedSource &Base = Relaunched ? *Relaunched : State;
  auto Candidate = E->applyTo(Base, Kernel);
  if (!Candidate) {
    P.Reason = llvm::toString(Candidate.takeError());
    return;
  }
  if (RawTokens(Candidate->text()).normalized() ==
      RawTokens(State.source().text()).normalized()) {
    P.Reason = "it changes nothing but layout or comments";
    return;
  }
  auto Parsed = KernelEditChecker(Parser, Base, Kernel.str()).check(*Candidate);
  if (!Parsed) {
    P.Reason = llvm::toString(Parsed.takeError());
    return;
  }
  if (!Relaunched)
    if (auto Same =
            TransformMatcher(Registry).match(State, Kernel, Candidate->text()))
      P.SameAsStep = *Same;
  accept(P, State, **Parsed, Kernel);
}
