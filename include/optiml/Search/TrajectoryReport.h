//===- TrajectoryReport.h - how the best kernel was found -------*- C++ -*-===//
//
// The path from the original to the best verified state: each step with
// its diff, the finding that suggested it and its measured effect, plus
// every evaluation in the order results came back (the best speedup after
// each). Markdown for a reader, JSON for scripts and the notes,
// HTML with a plot (HtmlReport.h); all three render this one value.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_TRAJECTORYREPORT_H
#define OPTIML_SEARCH_TRAJECTORYREPORT_H

#include "optiml/Search/MatchedSpeed.h"
#include "optiml/Search/ReportProvenance.h"
#include "optiml/Search/SearchGraph.h"

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <optional>
#include <string>

namespace optiml {

struct TrajectoryStep {
  std::string Step;       ///< Its spelling, as --apply takes it.
  std::string Motivation; ///< The proposer's reason.
  std::string Hash;
  double SpeedupBefore = 1; ///< Effective, over the original.
  double SpeedupAfter = 1;
  double TimeNs = 0;
  /// Joules per launch after the step, when energy was measured.
  std::optional<double> Joules;
  /// The spread of its saving over the runner's rounds (Measurement::
  /// EnergySpread), when it had several.
  std::optional<double> EnergySpread;
  std::optional<double> RooflineBefore, RooflineAfter;
  std::optional<double> Reward;
  std::string Diff; ///< Unified; empty when a source is unavailable.
};

/// One evaluation: the graph's history point plus what a reader of the
/// report wants to see of that candidate.
struct TrajectoryPoint : HistoryPoint {
  /// The runner's ratio over the original, noise included, when the
  /// candidate was verified and timed (HistoryPoint::Speedup is the
  /// effective one: 1 inside the noise, 0 when rejected).
  std::optional<double> Measured;
  std::optional<double> Roofline;
  std::string Trace; ///< As --apply takes it; empty for the original.
  /// The 95% interval of the measured ratio, and why timing stopped
  /// (converged, screened, max_reps, max_seconds), when it was timed.
  std::optional<double> Low, High;
  std::string StopReason;
  /// Seconds per stage (Measurement::Stages); empty from the database.
  std::map<std::string, double> Stages;
  /// The original's energy per launch over the candidate's, and the spread
  /// of its rounds, where energy was measured (--objective energy, edp).
  std::optional<double> EnergySaving, EnergySpread;
};

/// What a proposer (a language model) added to a search, and its cost.
struct ProposerUsage {
  std::string Model, PromptVersion;
  unsigned Calls = 0;       ///< Rounds answered, from the cache included.
  unsigned CachedCalls = 0; ///< Of those, answered by the database.
  unsigned Proposals = 0, Accepted = 0;
  int64_t TokensIn = 0, TokensOut = 0;
  double Cost = 0, Seconds = 0;
  /// What was dropped and why, and why the proposer fell silent.
  std::vector<std::string> Notes;
};

/// A move the search had at the original, with the prior that ranked it
/// and what it came to.
struct RootMove {
  std::string Step;
  double Prior = 0;
  std::string Motivation;
  /// "measured 3.05x", "failed", "refused: ...", "not tried", ...
  std::string Outcome;
};

struct Trajectory {
  std::string Kernel;
  std::string Strategy;
  /// The GPU, from the runner's result; empty when no result named it.
  std::string Device;
  /// The strategy's seed and the search's wall time, when the caller knows
  /// them (buildTrajectory does not).
  std::optional<uint64_t> Seed;
  std::optional<double> WallSeconds;
  /// Why the search stopped (toString(StopReason): "budget", "time",
  /// "exhausted", "interrupted"), when the caller knows; an interrupted
  /// search's report is of what was measured before the interrupt.
  std::string Stopped;
  std::vector<TrajectoryStep> Steps;
  std::vector<TrajectoryPoint> Series;
  /// The original's moves by prior, highest first: why the search tried
  /// what it tried first.
  std::vector<RootMove> RootMoves;
  /// recordLandscape() of the search, as JSON text; empty when the
  /// original has no time.
  std::string Landscape;
  unsigned Evaluated = 0, Failed = 0, Cached = 0, Twins = 0;
  /// What the search ranked by (--objective), and the best state's gain
  /// under it (Measurement::effectiveGain(); BestSpeedup under time).
  Objective Goal = Objective::Time;
  double BestGain = 1;
  /// The best state's effective speedup over the original (below 1 when
  /// another objective chose a slower kernel).
  double BestSpeedup = 1;
  /// Joules per launch of the original and of the best state, when energy
  /// was measured.
  std::optional<double> JoulesOriginal, JoulesBest;
  /// Where energy was measured: a configuration as fast as the fastest
  /// (within the noise) that draws less energy, when one was measured.
  std::optional<MatchedSpeed> Matched;
  std::string BestTrace;
  /// Fraction of the roofline reached by the original and by the output
  /// kernel (the original when nothing beat it), from each one's own
  /// counters; absent when the counters did not allow it.
  std::optional<double> RooflineOriginal, RooflineBest;
  /// False when nothing beat the original: the original is the output.
  bool Improved = false;
  /// Set when a proposer took part (--llm, --proposals-from).
  std::optional<ProposerUsage> Llm;
  /// When, by what and from which command line; empty when not known.
  ReportProvenance Provenance;
};

/// The trajectory to \p G's best state; sources come from \p E.
Trajectory buildTrajectory(const SearchGraph &G, Expander &E,
                           llvm::StringRef Kernel, llvm::StringRef Strategy);

/// Phrases every rendering shares, so the reports say the same thing.
/// A kernel time as "25.75 ms" or "71.3 us"; "n/a" when not measured.
std::string formatKernelTime(double Ns);
/// "31.2%", or "n/a" (never 0) when the counters did not allow it.
std::string formatRoofline(std::optional<double> Fraction);
/// "12 candidates measured (1 failed), 0 answered from the database".
std::string describeCounts(const Trajectory &T);
/// "1.00x -> 2.60x over the original (2.60x this step); roofline ...".
std::string describeEffect(const TrajectoryStep &S);
/// "model (prompt propose/1): 3 calls (1 from the database), ...".
std::string describeUsage(const ProposerUsage &U);
/// "rewrite 0.05, build 2.10, run 3.20, ... (12 candidates)": the mean
/// seconds of each stage over the measured candidates; "" when none was.
std::string describeStages(const Trajectory &T);
/// "1.22x less energy per launch (at 1.01x the original's speed)" under
/// --objective energy, the same with "energy-delay product" under edp, and
/// "1.42x over the original" under time.
std::string describeBest(const Trajectory &T);
/// "`vectorize(...)` runs as fast as the fastest candidate, `...` (1.39x
/// and 1.40x the original's speed), on 1.12x less energy per launch
/// (29.53 mJ against 33.09 mJ)".
std::string describeMatchedSpeed(const MatchedSpeed &M);
/// "12.4 mJ" or "512 uJ" per launch; "n/a" when not measured.
std::string formatJoules(std::optional<double> Joules);
/// formatJoules, with the saving's spread when known: "35.27 mJ ±1.2%".
std::string formatEnergy(std::optional<double> Joules,
                         std::optional<double> Spread);
/// "ok 1.23x", "ok 0.99x (noise)" or the failure's status.
std::string describeOutcome(const TrajectoryPoint &P);

/// " (database)", " (same machine code as an earlier candidate)" or "":
/// where an answer came from when no GPU measured it.
llvm::StringRef answeredBy(const HistoryPoint &P);

std::string toMarkdown(const Trajectory &T);
nlohmann::json toJSON(const Trajectory &T);

} // namespace optiml

#endif // OPTIML_SEARCH_TRAJECTORYREPORT_H
