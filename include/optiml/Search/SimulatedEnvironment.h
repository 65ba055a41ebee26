//===- SimulatedEnvironment.h - a recorded space, replayed ------*- C++ -*-===//
//
// Tests and strategy comparisons run without a compiler or a GPU against a
// table of states (source hash, time, status, roofline fraction) and moves
// (step, prior, target state or refusal). Measurements get a seeded jitter
// inside the table's noise, deterministic per (seed, state, repetition),
// and advance a simulated clock, so time budgets are testable too.
//
// The table is JSON:
//   {"root": "s0", "noise": 0.01, "seconds_per_candidate": 30,
//    "states": {"s0": {"time_ns": 2.6e7, "roofline": 0.08, "source": "...",
//                      "actions": [{"step": "tile(site=k/for#0,size=16)",
//                                   "prior": 0.4, "to": "s1",
//                                   "motivation": "cache-bound"},
//                                  {"step": "chain:c(site=k)", "to": "s2",
//                                   "steps": ["a(site=k)", "b(site=k)"]},
//                                  {"step": "...", "error": "illegal: ..."},
//                                  {"step": "unroll(site=k/for#0,factor=2)",
//                                   "untried": true}]},
//               "s1": {"status": "verify_failed", "log": "mismatch"}},
//    "retunes": {"tile(site=k/for#0,size=16)": ["tile(site=k/for#0,size=8)"]}}
//
// An untried move (the recording never measured it) leads to a guessed
// state, as fast as the state it starts from and with no moves.
// "retunes", optional, gives each step's other values as the expander that
// recorded the table gave them (RecordedLandscape.h); without it, a step's
// other values are every value of its transform and site in the table.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_SIMULATEDENVIRONMENT_H
#define OPTIML_SEARCH_SIMULATEDENVIRONMENT_H

#include "optiml/Search/Expander.h"
#include "optiml/Search/Measurer.h"

#include <map>
#include <memory>

namespace optiml {

class SimulatedEnvironment : public Expander, public Measurer {
public:
  /// Parses and checks a table; BadInput naming the offending state.
  static llvm::Expected<std::unique_ptr<SimulatedEnvironment>>
  fromText(llvm::StringRef JSONText, uint64_t Seed = 1);
  static llvm::Expected<std::unique_ptr<SimulatedEnvironment>>
  fromFile(llvm::StringRef Path, uint64_t Seed = 1);

  std::string rootHash() override { return Root; }
  llvm::Expected<std::vector<ScoredAction>>
  actions(const StateView &S) override;
  llvm::Expected<AppliedMove> apply(const Trace &From, llvm::StringRef FromHash,
                                    const Step &Next) override;
  std::optional<std::string> sourceText(llvm::StringRef Hash) override;
  /// The table's "retunes" of \p Paid when it has them; else the steps
  /// recorded anywhere in the table with \p Paid's transform and site and
  /// other parameters (none for a step without parameters).
  std::vector<Step> retunes(const Step &Paid) override;

  Measurement measure(const Candidate &C) override;

  /// Simulated seconds spent measuring so far.
  double now() const { return Clock; }
  unsigned measurements() const { return Measured; }
  unsigned timesMeasured(llvm::StringRef Hash) const;
  /// The recorded speedup of \p Hash over the root, without jitter.
  double recordedSpeedup(llvm::StringRef Hash) const;
  /// The state with the best recorded time that measures correctly.
  std::string bestState() const;

private:
  struct Move {
    ScoredAction Scored;
    std::string To;
    std::string Error; ///< "illegal: why" or "not-applicable: why".
    Trace Steps;       ///< What a chain took; empty for a single step.
  };
  struct State {
    double TimeNs = 0;
    CandidateStatus Status = CandidateStatus::Ok;
    std::optional<double> Roofline;
    std::string Log;
    std::string Source;
    /// The state whose measurement answered this one on the GPU (the same
    /// machine code, Measurement::TwinOf).
    std::string TwinOf;
    std::vector<Move> Moves;
  };

  SimulatedEnvironment() = default;
  /// State \p Hash's recorded measurement, its \p Repetition-th reading.
  Measurement recorded(const std::string &Hash, unsigned Repetition);
  /// The name of the guessed state an untried \p Move from \p From leads to.
  static std::string guessedState(llvm::StringRef From, const Step &Move);
  void addGuessedStates();
  static llvm::Expected<std::unique_ptr<SimulatedEnvironment>>
  parse(llvm::StringRef JSONText, uint64_t Seed);
  /// Uniform in [-1, 1], fixed by the seed, the state and the repetition.
  double jitter(llvm::StringRef Hash, unsigned Repetition) const;

  std::string Root;
  std::map<std::string, State> States;
  double Noise = 0.01;
  double SecondsPerCandidate = 1;
  uint64_t Seed = 1;
  double Clock = 0;
  unsigned Measured = 0;
  std::map<std::string, unsigned> Counts;
  /// The table's "retunes", by step spelling; unset without it.
  std::optional<std::map<std::string, std::vector<Step>>> Retunes;
};

} // namespace optiml

#endif // OPTIML_SEARCH_SIMULATEDENVIRONMENT_H
