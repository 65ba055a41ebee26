//===- FromPromptReport.h - what --from-prompt did, for people -*- C++ -*-===//
//
// The record of one --from-prompt run: the strategies the model proposed,
// every kernel it wrote with its status (checked, repaired, dropped and
// why, agreeing or not with the reference, its time), the agreement matrix
// and the verdict on the reference, the model's tokens and cost. Written as
// OUT.fromprompt.md, .json and .html in every outcome, a refused one
// included, so that nobody has to trust a kernel without seeing why it was
// chosen.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_FROMPROMPTREPORT_H
#define OPTIML_DRIVER_FROMPROMPTREPORT_H

#include "optiml/Eval/AgreementMatrix.h"
#include "optiml/LLM/RecordingChatClient.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// One file the model wrote.
struct GeneratedEntry {
  std::string Label;    ///< "interface", "reference", "s2", ...
  std::string Strategy; ///< The strategy's name; empty for the others.
  std::string Plan;
  /// checked, dropped; on the GPU: agrees, disagrees, failed.
  std::string Status = "checked";
  std::string Reason;    ///< Why dropped or what failed.
  bool Repaired = false; ///< Accepted after the repair round.
  std::string File;      ///< Where it was written; empty when dropped.
  std::string Launch;
  double TimeNs = 0; ///< Median on the GPU; 0 when not timed.
};

struct FromPromptReport {
  std::string Description;
  std::string Kernel;
  std::string Model;
  std::string Gpu; ///< Empty without a GPU.
  /// verified, not_cross_checked, untrusted, failed.
  std::string Outcome = "failed";
  std::string Summary; ///< One sentence: the verdict and why.
  std::vector<GeneratedEntry> Entries;
  std::optional<AgreementMatrix> Matrix;
  std::string Chosen; ///< The label of the starting kernel, if any.
  double ReferenceNs = 0;
  LlmUsage Usage;    ///< This run's calls.
  LlmUsage Answered; ///< Every answer used, recorded ones included.
  double Seconds = 0;
  std::vector<std::string> Notes;
};

nlohmann::json toJSON(const FromPromptReport &R);
std::string toMarkdown(const FromPromptReport &R);
/// A page with the same content, the matrix coloured.
std::string toHtml(const FromPromptReport &R);

} // namespace optiml

#endif // OPTIML_DRIVER_FROMPROMPTREPORT_H
