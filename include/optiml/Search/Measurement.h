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

/// What a search ranks candidates by (--objective): the kernel's time, its
/// energy per launch, or their product (the energy-delay product, EDP).
enum class Objective { Time, Energy, Edp };
llvm::StringRef toString(Objective O);
std::optional<Objective> parseObjective(llvm::StringRef Text);

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
  /// Taken from the database: no build or GPU time was spent; or, with
  /// TwinOf, from another candidate's measurement.
  bool Cached = false;
  /// The hash of the candidate whose measurement this is: this one built
  /// the same machine code, launched the same way (no GPU time was spent).
  std::string TwinOf;
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

  /// Joules per launch of the candidate and of the original, each over
  /// back-to-back launches in the same run (NVML), when energy was
  /// measured.
  std::optional<double> Joules, ReferenceJoules;
  /// What the search ranks this measurement by (its --objective).
  Objective Goal = Objective::Time;

  /// Half the range of the saving's per-round readings (the runner's
  /// alternating windows) relative to their median, when it had several.
  std::optional<double> EnergySpread;

  /// The noise of a saving read once a side (a runner that measured one
  /// window, or a result from before the rounds): on an H100 and an H200
  /// (2026-11-26) the original against itself read 0.94-1.04 that way,
  /// measured reference first, so savings within 7% are taken as none.
  static constexpr double EnergyNoise = 0.07;
  /// The least noise a measured spread is taken for: four rounds may agree
  /// by chance closer than runs do. With windows between counter steps the
  /// original against itself read 0.997-1.001 over six searches on an H100
  /// (2026-11-27), its rounds within 0.2%; 1% leaves room for a host busy
  /// with builds.
  static constexpr double MinEnergyNoise = 0.01;

  bool ok() const { return Status == CandidateStatus::Ok; }
  /// The speedup that counts: 1 inside the noise, 0 when rejected.
  double effectiveSpeedup() const;
  /// The original's energy per launch over the candidate's, when both were
  /// measured.
  std::optional<double> energySaving() const;
  /// How much better than the original the candidate is under Goal: its
  /// speedup, its energy saving, or the product of both (the original's
  /// energy-delay product over the candidate's). Nothing when Goal needs
  /// energy that was not measured.
  std::optional<double> gain() const;
  /// The noise of energySaving(): the rounds' spread, at least
  /// MinEnergyNoise, or EnergyNoise for a single reading a side.
  double energyNoise() const;
  /// The noise below which a change of gain() is none.
  double gainNoise() const;
  /// The gain that counts, as the search ranks by it: 1 inside the noise,
  /// 0 when rejected or not measured.
  double effectiveGain() const;
};

/// What the search needs of an evaluation: the status, the timing of the
/// first timed instance, the roofline fraction of the candidate's counters
/// when the metrics pass ran, and the candidate's build facts.
Measurement measurementOf(const Evaluation &E);

/// Fills \p M's energy from the runner's \p Result (its first instance
/// that measured both sides); leaves it unset otherwise.
void readEnergy(const protocol::RunResult &Result, Measurement &M);

} // namespace optiml

#endif // OPTIML_SEARCH_MEASUREMENT_H
