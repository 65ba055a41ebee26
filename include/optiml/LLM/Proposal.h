//===- Proposal.h - one change a proposer suggests, judged -----*- C++ -*-===//
//
// A proposal is either structured (a step of a registered transform, which
// the search can replay) or an edit (a new kernel definition). Either way
// it carries the proposer's confidence and rationale and, once validated,
// the verdict with its reason, the diff and the resulting source, so a
// rejected one is a record too (DESIGN.md: failures are records).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_PROPOSAL_H
#define OPTIML_LLM_PROPOSAL_H

#include "optiml/IR/KernelSource.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace optiml {

enum class ProposalKind { Structured, Edit };

/// What a proposer said, before anything was checked.
struct RawProposal {
  ProposalKind Kind = ProposalKind::Structured;
  std::string Action; ///< Structured: `name(site=...,p=v)`.
  std::string Code;   ///< Edit: the new kernel (and helpers).
  /// Edit: the launch it needs (`grid(...) block(...) [shmem(...)]`, as
  /// expressions of the spec's sizes); empty to keep the mark's.
  std::string Launch;
  double Confidence = 0.5; ///< In [0, 1].
  std::string Rationale;
};

struct Proposal {
  RawProposal Raw;
  bool Accepted = false;
  /// Why it was rejected, or for an accepted one what it rests on.
  std::string Reason;
  /// Structured: the step as applied, every parameter set.
  std::string Step;
  /// Edit: the transform step that produces the same source, if one does.
  std::string SameAsStep;
  std::string Diff; ///< Unified diff against the state it was made on.
  std::optional<KernelSource> Result; ///< Accepted ones only.
};

llvm::StringRef toString(ProposalKind K);

/// `{"kind", "status", "reason", "rationale", "diff", ...}` as --propose
/// prints it.
nlohmann::json toJSON(const Proposal &P);

} // namespace optiml

#endif // OPTIML_LLM_PROPOSAL_H
