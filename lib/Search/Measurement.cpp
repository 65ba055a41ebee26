//===- Measurement.cpp - what one candidate's evaluation gave -------------===//

#include "optiml/Search/Measurement.h"
#include "optiml/Profile/Roofline.h"

#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

using namespace optiml;
using nlohmann::json;

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

double Measurement::effectiveSpeedup() const {
  if (!ok())
    return 0;
  return Significant ? Speedup : 1;
}

/// The runner's statuses (docs/Runner.md) and the Evaluator's, mapped to
/// what the search does with them.
static CandidateStatus statusOf(const json &Result) {
  std::string S = Result.value("status", "");
  if (S == "ok") {
    const json &V = Result.value("verify", json());
    bool Passed = V.is_object() && V.value("passed", false);
    return Passed ? CandidateStatus::Ok : CandidateStatus::VerifyFailed;
  }
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

static void readTiming(const json &Timing, Measurement &M) {
  if (!Timing.is_object())
    return;
  M.Speedup = Timing.value("speedup", 1.0);
  M.Noise = Timing.value("noise", 0.0);
  M.Threshold = Timing.value("threshold", 0.0);
  M.Significant = Timing.value("significant", false);
  M.TimeNs = Timing.value("candidate", json::object()).value("median_ns", 0.0);
  M.ReferenceTimeNs =
      Timing.value("reference", json::object()).value("median_ns", 0.0);
}

static void readRoofline(const json &Result, Measurement &M) {
  auto Counters = KernelCounters::fromRunnerResult(Result);
  auto Peaks = DevicePeaks::fromRunnerResult(Result);
  if (Counters && Peaks)
    if (auto R = computeRoofline(*Counters, *Peaks))
      M.RooflineFraction = R->Fraction;
  llvm::consumeError(Counters.takeError());
  llvm::consumeError(Peaks.takeError());
}

static Measurement read(const json &Result) {
  Measurement M;
  M.Status = statusOf(Result);
  if (Result.contains("error") && Result["error"].is_string())
    M.Log = Result["error"].get<std::string>();
  else if (Result.contains("log") && Result["log"].is_string())
    M.Log = Result["log"].get<std::string>();
  if (M.ok()) {
    readTiming(Result.value("timing", json()), M);
    readRoofline(Result, M);
  }
  M.Runner = std::make_shared<const json>(Result);
  return M;
}

Measurement optiml::measurementFromRunnerResult(const json &Result) {
  if (!Result.is_object()) {
    Measurement M;
    M.Log = "the runner's result is not a JSON object";
    return M;
  }
  try {
    return read(Result);
  } catch (const json::exception &E) {
    Measurement M;
    M.Log = std::string("unreadable runner result: ") + E.what();
    return M;
  }
}
