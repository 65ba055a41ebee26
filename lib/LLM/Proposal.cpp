//===- Proposal.cpp - one change a proposer suggests, judged -------------===//

#include "optiml/LLM/Proposal.h"

#include <nlohmann/json.hpp>

using namespace optiml;

llvm::StringRef optiml::toString(ProposalKind K) {
  return K == ProposalKind::Structured ? "structured" : "edit";
}

nlohmann::json optiml::toJSON(const Proposal &P) {
  nlohmann::json J = {{"kind", toString(P.Raw.Kind)},
                      {"status", P.Accepted ? "accepted" : "rejected"},
                      {"reason", P.Reason},
                      {"rationale", P.Raw.Rationale},
                      {"confidence", P.Raw.Confidence},
                      {"diff", P.Diff}};
  if (P.Raw.Kind == ProposalKind::Structured)
    J["step"] = P.Step.empty() ? P.Raw.Action : P.Step;
  else {
    // The code itself, so that --proposals-from can apply it again.
    J["code"] = P.Raw.Code;
    if (!P.Raw.Launch.empty())
      J["launch"] = P.Raw.Launch;
    if (!P.SameAsStep.empty())
      J["same_as"] = P.SameAsStep;
  }
  return J;
}
