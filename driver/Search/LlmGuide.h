//===- LlmGuide.h - a proposer's say in the search --------------*- C++ -*-===//
//
// What --llm (or --proposals-from) changes in --optimize. When the search
// lists a state's moves, the guide asks the proposer about that state (one
// round per sample) and merges what survived static validation:
// - a structured step that is already a listed move gets a larger prior
//   (policies `prior` and `both`);
// - a structured step the listing lacks, and a free-form edit, become new
//   moves (policies `expand` and `both`). An edit is the move
//   `edit(site=KERNEL,id=HEX)`: the guide keeps its code under that id, so
//   replaying the trace applies the same edit again, checked again.
// Measurements come back through observe(): the next prompt's trajectory
// carries them, failures included. When the proposer cannot answer (the
// endpoint is unreachable, the budget is spent), the guide says so once
// and stays silent for the rest of the run: the search goes on with the
// heuristic policy, and the report says why.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_LLMGUIDE_H
#define OPTIML_DRIVER_LLMGUIDE_H

#include "optiml/LLM/ProposalValidator.h"
#include "optiml/LLM/Proposer.h"
#include "optiml/Search/Expander.h"
#include "optiml/Search/TrajectoryReport.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>

namespace optiml {

enum class LlmPolicy { Expand, Prior, Both };

/// `expand`, `prior` or `both`; anything else is BadInput.
llvm::Expected<LlmPolicy> parseLlmPolicy(llvm::StringRef Text);

/// The pseudo-transform of free-form edits in a trace.
inline constexpr llvm::StringLiteral EditStepName = "edit";

struct LlmGuideOptions {
  LlmPolicy Policy = LlmPolicy::Both;
  unsigned Samples = 1; ///< Rounds per state, at rising temperature.
  unsigned Count = 3;   ///< Proposals asked for per round.
  /// The share of a state's prior mass that goes to the proposer's picks
  /// (policies prior and both).
  double Weight = 0.5;
};

class LlmGuide {
public:
  /// \p Validator checks edits again when a trace is replayed; it need not
  /// build (the measurer does). \p Log gets the one warning of a failure.
  LlmGuide(Proposer &P, const ProposalValidator &Validator, std::string Kernel,
           std::string SpecText, LlmGuideOptions Options,
           llvm::raw_ostream &Log)
      : P(P), Validator(Validator), Kernel(std::move(Kernel)),
        SpecText(std::move(SpecText)), Options(Options), Log(Log) {}

  /// What the profiler made of a state, for the prompt.
  struct StateFacts {
    std::optional<DeviceFacts> Device;
    std::string Bottleneck;
    std::vector<Finding> Findings;
  };

  /// Merges the proposer's answers about \p State (reached by \p Steps)
  /// into \p Moves.
  void guide(ParsedSource &State, const Trace &Steps, const StateFacts &Facts,
             std::vector<ScoredAction> &Moves);

  /// The source an edit step makes of \p From: the kept code applied again
  /// and judged again. NotApplicable for an id this run never proposed,
  /// Illegal when the edit does not fit \p From.
  llvm::Expected<KernelSource> applyEdit(ParsedSource &From,
                                         const Step &Edit) const;

  /// A measurement came back.
  void observe(const Trace &Steps, const Measurement &Result);

  /// Calls, tokens, cost and what was dropped, for the report.
  const ProposerUsage &usage() const { return Usage; }

private:
  struct Pick {
    Step Move;
    double Confidence = 0;
    std::string Motivation;
  };

  std::vector<TrajectoryEntry> trajectory(const Trace &Steps) const;
  std::string spell(const Step &S) const;
  std::optional<ProposalBatch> ask(const ProposalContext &C);
  void collect(const ProposalBatch &B, std::vector<Pick> &Picks);
  std::optional<Step> moveOf(const Proposal &Prop);
  void merge(std::vector<Pick> Picks, std::vector<ScoredAction> &Moves) const;

  Proposer &P;
  const ProposalValidator &Validator;
  std::string Kernel, SpecText;
  LlmGuideOptions Options;
  llvm::raw_ostream &Log;
  bool Silenced = false;
  ProposerUsage Usage;
  /// Edit id -> its code and the rationale the model gave.
  struct KeptEdit {
    std::string Code, Rationale;
  };
  llvm::StringMap<KeptEdit> Edits;
  /// Trace spelling -> what its measurement showed.
  llvm::StringMap<std::string> Outcomes;
  /// The latest failures, wherever they were, for the next prompt.
  std::deque<TrajectoryEntry> Failures;
};

} // namespace optiml

#endif // OPTIML_DRIVER_LLMGUIDE_H
