//===- Runner.cpp - One run of a plan, phase by phase ---------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"
#include "Buffers.h"
#include "CudaCheck.h"
#include "CuptiTimer.h"
#include "Energy.h"
#include "EventMarkers.h"
#include "MetricsPass.h"
#include "Timing.h"
#include "Verify.h"

#include <chrono>

namespace optiml {

Runner::Runner(const Plan &P, ResultWriter &Result, Session &S)
    : P(P), Result(Result), Shared(S) {}

ProgressFn Runner::progress() {
  return [this](const std::string &Phase) { Result.phase(Phase); };
}

Status Runner::run(std::string &Message) {
  bool Passed = false;
  Error E = stage("load", [&] { return loadLibraries(); });
  if (!E)
    E = stage("device", [&] { return setUpDevice(); });
  if (!E)
    E = stage("verify", [&] { return verify(Passed); });
  if (E) {
    Message = E.message();
    return E.status();
  }
  if (!Passed) {
    Message = std::to_string(Failures.seen()) +
              " verification failure(s); "
              "timing, energy and metrics skipped";
    return Status::VerifyFailed;
  }
  E = stage("time", [&] { return time(); });
  if (!E && P.Energy)
    E = stage("energy", [&] { return energy(); });
  if (!E && P.Metrics && metricsWanted())
    E = stage("metrics", [&] { return metrics(); });
  if (E) {
    Message = E.message();
    return E.status();
  }
  return Status::Ok;
}

Error Runner::stage(const char *Name, const std::function<Error()> &Body) {
  auto T0 = std::chrono::steady_clock::now();
  Error E = Body();
  Result.result().Stages[Name] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
          .count();
  return E;
}

bool Runner::metricsWanted() {
  const protocol::InstanceTiming *T = Result.result().firstTiming();
  if (P.MetricsMinSpeedup <= 0 || !T || T->Speedup >= P.MetricsMinSpeedup)
    return true;
  Result.log("metrics skipped: speedup " + std::to_string(T->Speedup) +
             " is below " + std::to_string(P.MetricsMinSpeedup) +
             " (metrics_min_speedup)");
  return false;
}

Error Runner::loadLibraries() {
  Result.phase("load " + P.Reference);
  if (Error E = Shared.reference(P.Reference, Ref))
    return E;
  if (P.hasCandidate()) {
    Result.phase("load " + P.Candidate);
    if (Error E = KernelLibrary::open(P.Candidate, Cand))
      return E;
    Cand->setCandidate();
  } else {
    Result.log("no candidate: the reference is compared and timed against "
               "itself");
  }
  Result.result().Libraries = protocol::LibrariesReport{
      {Ref->path(), Ref->kernelName(), std::nullopt},
      {candidate().path(), candidate().kernelName(), std::nullopt}};
  return Error::success();
}

Error Runner::setUpDevice() {
  Result.phase("device");
  if (Error E = Shared.device(Device))
    return E;
  Stream = Shared.stream();
  Result.result().Device = describeDevice(*Device);
  if (P.Timing.FlushL2 || P.Metrics)
    if (Error E = Shared.flusher(Flusher))
      return E;
  // The kernels' resources on this device, as loaded: the tool prefers
  // them to the build's ptxas report.
  protocol::LibrariesReport &Libraries = *Result.result().Libraries;
  Libraries.Reference.Attributes = Ref->attributes();
  Libraries.Candidate.Attributes = candidate().attributes();
  return Error::success();
}

Error Runner::verify(bool &Passed) {
  Verifier V(P, *Ref, candidate(), Stream, Failures, progress(),
             Shared.referenceCache());
  protocol::VerifyReport Out;
  Error E = V.run(Out.Instances);
  Passed = !E && V.passed();
  Out.Passed = Passed;
  Out.Seeds = P.Seeds;
  Out.Tol = P.Tol;
  Out.Failures = Failures.kept();
  Out.FailuresTotal = Failures.seen();
  Result.result().Verify = std::move(Out);
  if (V.onDevice())
    Result.log("the candidate passed " + std::to_string(V.onDevice()) +
               " (instance, seed) pair(s) on the device-side checks alone");
  if (V.reused())
    Result.log("the reference's outputs of " + std::to_string(V.reused()) +
               " (instance, seed) pair(s) came from earlier plans (checksums "
               "intact); only the candidate ran");
  Result.write();
  return E;
}

Error Runner::time() {
  std::vector<const Instance *> Timed;
  for (const Instance &I : P.Instances)
    if (I.Time)
      Timed.push_back(&I);
  if (Timed.empty()) {
    Result.log("timing skipped: no instance has \"time\": true");
    return Error::success();
  }
  Result.phase("timing: starting CUPTI activity tracing");
  std::unique_ptr<CuptiTimer> Timer;
  if (Error E = CuptiTimer::start(Timer))
    return E;
  TimingRunner TR(P, *Ref, candidate(), Stream,
                  P.Timing.FlushL2 ? Flusher : nullptr,
                  *Timer, Failures, progress());
  protocol::TimingReport Out;
  for (const Instance *I : Timed) {
    Error E = TR.timeInstance(*I, Out.Instances.emplace_back());
    if (E.status() == Status::VerifyFailed) {
      // The timed launches were not what was verified: no timing is
      // reported, and verification is failed after the fact.
      protocol::VerifyReport &V = *Result.result().Verify;
      V.Passed = false;
      V.Failures = Failures.kept();
      V.FailuresTotal = Failures.seen();
      Result.write();
    }
    if (E)
      return E.withContext("timing " + I->Name);
  }
  Result.result().Timing = std::move(Out);
  Result.write();
  return Timer->stop();
}

Error Runner::energy() {
  Result.phase("energy");
  std::string WhyNot;
  std::unique_ptr<EnergyMeter> Meter =
      EnergyMeter::open(Device->PciBusId, WhyNot);
  protocol::EnergyReport Out;
  if (!Meter) {
    Out.Available = false;
    Out.Reason = WhyNot;
    Result.result().Energy = std::move(Out);
    return Error::success();
  }
  // Windows run from one step of NVML's counter to another
  // (measureEnergyWindow); the rounds give the saving a spread to judge it
  // by. Windows read at arbitrary moments had 1-24% spreads on an H100.
  EnergySettings Settings;
  if (Error E = EnergySettings::fromEnvironment(Settings))
    return E;
  Out.Available = true;
  Out.Method = "nvmlDeviceGetTotalEnergyConsumption between two steps of "
               "the counter, back-to-back launches counted by events (no L2 "
               "flush, inout buffers not restored), after " +
               std::to_string(Settings.SettleSeconds).substr(0, 4) +
               " s of the side's launches: " + std::to_string(Settings.Rounds) +
               " rounds of " +
               std::to_string(Settings.WindowSeconds).substr(0, 4) +
               " s a side, the side measured first alternating";
  const KernelLibrary *Libs[2] = {Ref, &candidate()};
  for (const Instance *I : profiledInstances(P)) {
    BufferSet Bufs;
    if (Error E = Bufs.loadInputs(*I, P.Seeds.front(), Stream))
      return E;
    protocol::InstanceEnergy InstOut;
    InstOut.Instance = I->Name;
    Result.phase("energy " + I->Name);
    auto Launch = [&](Side S) {
      return Libs[static_cast<int>(S)]->launch(*I, Bufs, Stream);
    };
    EventMarkers Markers;
    Error E = Markers.create(Stream, "energy " + I->Name);
    if (!E)
      E = measureEnergyRounds(*Meter, Launch, Markers.ops(), Settings, InstOut);
    if (E && E.status() == Status::Fault)
      return E;
    if (E) {
      InstOut.Reference = InstOut.Candidate = protocol::SideEnergy{E.message()};
      InstOut.Ratios.reset();
    }
    Out.Instances.push_back(std::move(InstOut));
  }
  Result.result().Energy = std::move(Out);
  return Error::success();
}

Error Runner::metrics() {
  protocol::MetricsReport Out;
  Error E = collectMetrics(P, *Ref, candidate(), Stream, Flusher,
                           Device->Ordinal, progress(), Out,
                           Shared.referenceMetrics());
  Result.result().Metrics = std::move(Out);
  return E;
}

} // namespace optiml
