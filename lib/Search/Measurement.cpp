//===- Measurement.cpp - what one candidate's evaluation gave -------------===//

#include "optiml/Search/Measurement.h"
#include "optiml/Profile/Roofline.h"

#include "llvm/Support/Error.h"

#include <algorithm>
#include <cmath>

using namespace optiml;

static const std::pair<CandidateStatus, const char *> StatusNames[] = {
    {CandidateStatus::Ok, "ok"},
    {CandidateStatus::BuildFailed, "build_failed"},
    {CandidateStatus::VerifyFailed, "verify_failed"},
    {CandidateStatus::Crashed, "crashed"},
    {CandidateStatus::TimedOut, "timeout"},
    {CandidateStatus::Error, "error"},
};

llvm::StringRef optiml::toString(CandidateStatus S) {
  for (const auto &[Status, Name] : StatusNames)
    if (Status == S)
      return Name;
  return "error";
}

std::optional<CandidateStatus>
optiml::parseCandidateStatus(llvm::StringRef Text) {
  for (const auto &[Status, Name] : StatusNames)
    if (Text == Name)
      return Status;
  return std::nullopt;
}

static const std::pair<Objective, const char *> ObjectiveNames[] = {
    {Objective::Time, "time"},
    {Objective::Energy, "energy"},
    {Objective::Edp, "edp"},
};

llvm::StringRef optiml::toString(Objective O) {
  for (const auto &[Goal, Name] : ObjectiveNames)
    if (Goal == O)
      return Name;
  return "time";
}

std::optional<Objective> optiml::parseObjective(llvm::StringRef Text) {
  for (const auto &[Goal, Name] : ObjectiveNames)
    if (Text == Name)
      return Goal;
  return std::nullopt;
}

double Measurement::effectiveSpeedup() const {
  if (!ok())
    return 0;
  return Significant ? Speedup : 1;
}

std::optional<double> Measurement::energySaving() const {
  if (!Joules || !ReferenceJoules || *Joules <= 0 || *ReferenceJoules <= 0)
    return std::nullopt;
  return *ReferenceJoules / *Joules;
}

std::optional<double> Measurement::gain() const {
  if (Goal == Objective::Time)
    return Speedup;
  std::optional<double> Saving = energySaving();
  if (!Saving)
    return std::nullopt;
  return Goal == Objective::Energy ? *Saving : *Saving * Speedup;
}

double Measurement::energyNoise() const {
  return EnergySpread ? std::max(MinEnergyNoise, *EnergySpread) : EnergyNoise;
}

double Measurement::gainNoise() const {
  double Energy = energyNoise();
  switch (Goal) {
  case Objective::Time:
    return Threshold;
  case Objective::Energy:
    return Energy;
  case Objective::Edp:
    return Threshold + Energy;
  }
  return Threshold;
}

double Measurement::effectiveGain() const {
  if (Goal == Objective::Time)
    return effectiveSpeedup();
  std::optional<double> G = gain();
  if (!ok() || !G)
    return 0;
  return std::abs(*G - 1) > gainNoise() ? *G : 1;
}

/// The runner's statuses (docs/Runner.md) and the tool's (RunOutcome.h),
/// mapped to what the search does with them.
static CandidateStatus statusOf(const Evaluation &E) {
  const std::string &S = E.status();
  if (S == "ok")
    return E.accepted() ? CandidateStatus::Ok : CandidateStatus::VerifyFailed;
  if (S == "build_failed")
    return CandidateStatus::BuildFailed;
  if (S == "verify_failed")
    return CandidateStatus::VerifyFailed;
  if (S == "fault" || S == "launch_error" || S == "incomplete" || S == "crash")
    return CandidateStatus::Crashed;
  if (S == "timeout")
    return CandidateStatus::TimedOut;
  return CandidateStatus::Error;
}

static void readTiming(const protocol::InstanceTiming &T, Measurement &M) {
  M.Speedup = T.Speedup;
  M.Noise = T.Noise;
  M.Threshold = T.Threshold;
  M.Significant = T.Significant;
  M.TimeNs = T.Candidate.MedianNs;
  M.ReferenceTimeNs = T.Reference.MedianNs;
}

/// Half the range of \p Ratios over their median; nothing for fewer than
/// two.
static std::optional<double>
relativeHalfRange(const std::optional<std::vector<double>> &Ratios) {
  if (!Ratios || Ratios->size() < 2)
    return std::nullopt;
  std::vector<double> R = *Ratios;
  std::sort(R.begin(), R.end());
  size_t N = R.size();
  double Median = N % 2 ? R[N / 2] : (R[N / 2 - 1] + R[N / 2]) / 2;
  if (Median <= 0)
    return std::nullopt;
  return (R.back() - R.front()) / 2 / Median;
}

/// Joules per launch of both sides of the first instance that measured
/// both, and the spread of their ratio.
void optiml::readEnergy(const protocol::RunResult &Result, Measurement &M) {
  if (!Result.Energy || !Result.Energy->Available)
    return;
  for (const protocol::InstanceEnergy &I : Result.Energy->Instances)
    if (!I.Reference.Error && !I.Candidate.Error &&
        I.Reference.JoulesPerLaunch > 0 && I.Candidate.JoulesPerLaunch > 0) {
      M.ReferenceJoules = I.Reference.JoulesPerLaunch;
      M.Joules = I.Candidate.JoulesPerLaunch;
      M.EnergySpread = relativeHalfRange(I.Ratios);
      return;
    }
}

static void readRoofline(const protocol::RunResult &Result, Measurement &M) {
  auto Counters = KernelCounters::fromRunnerResult(Result);
  auto Peaks = DevicePeaks::fromRunnerResult(Result);
  if (Counters && Peaks)
    if (auto R = computeRoofline(*Counters, *Peaks))
      M.RooflineFraction = R->Fraction;
  llvm::consumeError(Counters.takeError());
  llvm::consumeError(Peaks.takeError());
}

Measurement optiml::measurementOf(const Evaluation &E) {
  Measurement M;
  M.Status = statusOf(E);
  M.Log = E.Run.Error;
  if (const BuildResult *Failed = E.failedBuild(); Failed && M.Log.empty())
    M.Log = llvm::StringRef(Failed->Log).take_back(8000).str();
  if (const auto &Result = E.Run.Result) {
    if (M.ok()) {
      if (const protocol::InstanceTiming *T = Result->firstTiming())
        readTiming(*T, M);
      readRoofline(*Result, M);
      readEnergy(*Result, M);
    }
    M.Runner = std::make_shared<const protocol::RunResult>(*Result);
    M.Stages = Result->Stages;
  }
  M.Usage = E.Candidate.Usage;
  M.Sass = E.Candidate.Sass;
  return M;
}
