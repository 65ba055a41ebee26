//===- Measurement.h - what one candidate's evaluation gave -----*- C++ -*-===//
//
// The search's view of an evaluation: a status that decides pruning, the
// runner's side-by-side speedup over the original with its noise, and the
// fraction of the roofline reached. The runner's decoded result is kept for
// the proposer (its counters feed the micro-profiler) and the database.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_MEASUREMENT_H
#define OPTIML_SEARCH_MEASUREMENT_H

#include "optiml/Eval/Evaluator.h"
#include "optiml/Eval/ResourceUsage.h"
#include "optiml/Eval/SassMix.h"
#include "optiml/Protocol/RunResult.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace optiml {

enum class CandidateStatus {
  Ok,           ///< Built, verified and timed.
  BuildFailed,  ///< nvcc refused it.
  VerifyFailed, ///< Wrong outputs (or the reference's checks failed).
  Crashed,      ///< Fault, launch error, or the runner died.
  TimedOut,     ///< Hung past the runner's time limit.
  Error,        ///< Any other runner-side failure.
};

llvm::StringRef toString(CandidateStatus S);
std::optional<CandidateStatus> parseCandidateStatus(llvm::StringRef Text);

struct Measurement {
  CandidateStatus Status = CandidateStatus::Error;
  /// Median of the original over median of the candidate, same process.
  double Speedup = 1;
  double Noise = 0;     ///< Relative noise of the paired ratio.
  double Threshold = 0; ///< Below it a change is noise (the runner's).
  bool Significant = false;
  double TimeNs = 0;          ///< Candidate's median.
  double ReferenceTimeNs = 0; ///< Original's median in the same run.
  std::optional<double> RooflineFraction;
  std::string Log; ///< Why it failed (build log, runner error).
  /// Taken from the database: no build or GPU time was spent.
  bool Cached = false;
  /// The runner's result, when there is one; from the database, only the
  /// parts it keeps (device, timing, metrics).
  std::shared_ptr<const protocol::RunResult> Runner;
  /// What ptxas reported for the candidate (the Evaluation's build), for
  /// the occupancy and spill analyzers.
  std::optional<ResourceUsage> Usage;
  /// The candidate's SASS instruction mix, when cuobjdump was there.
  std::optional<SassMix> Sass;
  /// Seconds per stage of this candidate: "rewrite", "build" (nvcc, run in
  /// parallel with the batch's others), "run" (the runner process, start to
  /// end) and the runner's own stages (load, device, verify, time, energy,
  /// metrics). Empty when taken from the database.
  std::map<std::string, double> Stages;

  bool ok() const { return Status == CandidateStatus::Ok; }
  /// The speedup that counts: 1 inside the noise, 0 when rejected.
  double effectiveSpeedup() const;
};

/// What the search needs of an evaluation: the status, the timing of the
/// first timed instance, the roofline fraction of the candidate's counters
/// when the metrics pass ran, and the candidate's build facts.
Measurement measurementOf(const Evaluation &E);

} // namespace optiml

#endif // OPTIML_SEARCH_MEASUREMENT_H
