//===- Proposer.h - who suggests the next changes to a kernel --*- C++ -*-===//
//
// The search's expander asks a proposer for changes to one state: given
// what is known about it (source, spec, device, the profiler's findings,
// the trajectory that led here), the proposer returns proposals that have
// already been validated statically, rejected ones with their reasons.
// The LLM proposer is one; the heuristic priors of ProfileGuidedPriors are
// the other policy the expander mixes them with.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_PROPOSER_H
#define OPTIML_LLM_PROPOSER_H

#include "optiml/LLM/Proposal.h"
#include "optiml/Profile/Finding.h"
#include "optiml/Rewrite/ParsedSource.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// The device a state was measured on, as far as it is known.
struct DeviceFacts {
  std::string Name;
  unsigned SMs = 0;
  double DramBytesPerSecond = 0; ///< Measured peak; 0 when unknown.
  double Fp32FlopsPerSecond = 0;
};

/// One step of the trajectory so far and what it did.
struct TrajectoryEntry {
  std::string Step;    ///< `vectorize(site=...,width=4)` or "edit: ...".
  std::string Outcome; ///< "1.12x, verified", "build failed: ...".
};

struct ProposalContext {
  ParsedSource &State;
  std::string Kernel; ///< Qualified name.
  std::string Spec;   ///< The kernel's spec as the user wrote it.
  std::optional<DeviceFacts> Device;
  std::string Bottleneck; ///< Stage one's class, empty when unmeasured.
  std::vector<Finding> Findings;
  std::vector<TrajectoryEntry> Trajectory;
  unsigned Count = 3;  ///< Proposals wanted.
  unsigned Sample = 0; ///< Which sample of this prompt (cache key).
};

/// What one round of proposing gave and cost.
struct ProposalBatch {
  std::vector<Proposal> Proposals;
  /// Things a reader must know: the answer was cut off, was not JSON, ...
  std::vector<std::string> Notes;
  std::string Model, PromptVersion;
  /// How the answer's shape was asked for (ChatAnswer::Mode), or "cached".
  std::string Mode;
  int64_t TokensIn = 0, TokensOut = 0;
  double Cost = 0, Seconds = 0;
  bool Cached = false;
};

class Proposer {
public:
  virtual ~Proposer();
  /// Proposals for \p C.State. An error means no answer at all (the
  /// endpoint is unreachable, the budget is spent); the caller carries on
  /// without proposals.
  virtual llvm::Expected<ProposalBatch> propose(const ProposalContext &C) = 0;
};

} // namespace optiml

#endif // OPTIML_LLM_PROPOSER_H
