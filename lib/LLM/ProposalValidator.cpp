//===- ProposalValidator.cpp - judge a proposal before any GPU -----------===//

#include "optiml/LLM/ProposalValidator.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/LLM/TransformMatcher.h"
#include "optiml/Rewrite/KernelEdit.h"
#include "optiml/Rewrite/KernelEditChecker.h"
#include "optiml/Rewrite/RawTokens.h"
#include "optiml/Search/UnifiedDiff.h"
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

void ProposalValidator::edit(Proposal &P, ParsedSource &State,
                             llvm::StringRef Kernel) const {
  auto E = KernelEdit::fromCode(P.Raw.Code, Kernel);
  if (!E) {
    P.Reason = llvm::toString(E.takeError());
    return;
  }
  auto Candidate = E->applyTo(State, Kernel);
  if (!Candidate) {
    P.Reason = llvm::toString(Candidate.takeError());
    return;
  }
  if (RawTokens(Candidate->text()).normalized() ==
      RawTokens(State.source().text()).normalized()) {
    P.Reason = "it changes nothing but layout or comments";
    return;
  }
  auto Parsed =
      KernelEditChecker(Parser, State, Kernel.str()).check(*Candidate);
  if (!Parsed) {
    P.Reason = llvm::toString(Parsed.takeError());
    return;
  }
  if (auto Same =
          TransformMatcher(Registry).match(State, Kernel, Candidate->text()))
    P.SameAsStep = *Same;
  accept(P, State, **Parsed, Kernel);
}
