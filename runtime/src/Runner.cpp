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
#include "Inputs.h"
#include "MetricsPass.h"
#include "Timing.h"
#include "Verify.h"

namespace optiml {

namespace {

/// Energy batches run at least this long: NVML's counter updates every
/// 20-100 ms, so shorter batches would mostly measure its granularity.
constexpr double EnergyMinSeconds = 1.0;

} // namespace

Runner::Runner(const Plan &P, ResultWriter &Result) : P(P), Result(Result) {}

Runner::~Runner() {
  if (Stream)
    cudaStreamDestroy(Stream);
}

ProgressFn Runner::progress() {
  return [this](const std::string &Phase) { Result.phase(Phase); };
}

Status Runner::run(std::string &Message) {
  bool Passed = false;
  Error E = loadLibraries();
  if (!E)
    E = setUpDevice();
  if (!E)
    E = verify(Passed);
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
  E = time();
  if (!E && P.Energy)
    E = energy();
  if (!E && P.Metrics)
    E = metrics();
  if (E) {
    Message = E.message();
    return E.status();
  }
  return Status::Ok;
}

Error Runner::loadLibraries() {
  Result.phase("load " + P.Reference);
  if (Error E = KernelLibrary::open(P.Reference, Ref))
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
  Json Libs;
  Libs["reference"] = {{"path", Ref->path()}, {"kernel", Ref->kernelName()}};
  const KernelLibrary &C = Cand ? *Cand : *Ref;
  Libs["candidate"] = {{"path", C.path()}, {"kernel", C.kernelName()}};
  Result.root()["libraries"] = std::move(Libs);
  return Error::success();
}

Error Runner::setUpDevice() {
  Result.phase("device");
  if (Error E = checkGpuPresent())
    return E;
  // Device 0 of what CUDA_VISIBLE_DEVICES exposes.
  if (Error E = queryDevice(0, Device))
    return E;
  Result.root()["device"] = deviceToJson(Device);
  if (Error E =
          checkCuda(cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking),
                    "cudaStreamCreateWithFlags"))
    return E;
  if (P.Timing.FlushL2 || P.Metrics)
    if (Error E = Flusher.init(Device.L2Bytes))
      return E;
  return Error::success();
}

Error Runner::verify(bool &Passed) {
  const KernelLibrary &C = Cand ? *Cand : *Ref;
  Verifier V(P, *Ref, C, Stream, Failures, progress());
  Json Instances = Json::array();
  Error E = V.run(Instances);
  Passed = !E && V.passed();
  Json Out;
  Out["passed"] = Passed;
  Out["seeds"] = P.Seeds;
  Out["tolerance"] = {
      {"rtol", P.Tol.Rtol}, {"atol", P.Tol.Atol}, {"norm", P.Tol.Norm}};
  Out["instances"] = std::move(Instances);
  Out["failures"] = Failures.toJson();
  Out["failures_total"] = Failures.seen();
  Result.root()["verify"] = std::move(Out);
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
  const KernelLibrary &C = Cand ? *Cand : *Ref;
  TimingRunner TR(P, *Ref, C, Stream, P.Timing.FlushL2 ? &Flusher : nullptr,
                  *Timer, progress());
  Json All = Json::array();
  for (const Instance *I : Timed) {
    Json One;
    if (Error E = TR.timeInstance(*I, One))
      return E.withContext("timing " + I->Name);
    All.push_back(std::move(One));
  }
  // The first timed instance at the top level (the common single-instance
  // case reads timing.speedup), every timed instance under "instances".
  Json Top = All.front();
  Top["instances"] = std::move(All);
  Result.root()["timing"] = std::move(Top);
  Result.write();
  return Timer->stop();
}

Error Runner::energy() {
  Result.phase("energy");
  std::string WhyNot;
  std::unique_ptr<EnergyMeter> Meter =
      EnergyMeter::open(Device.PciBusId, WhyNot);
  Json Out;
  if (!Meter) {
    Out["available"] = false;
    Out["reason"] = WhyNot;
    Result.root()["energy"] = std::move(Out);
    return Error::success();
  }
  Out["available"] = true;
  Out["method"] = "nvmlDeviceGetTotalEnergyConsumption around back-to-back "
                  "launches (no L2 flush, inout buffers not restored), at "
                  "least 1 s per side";
  Out["instances"] = Json::array();
  const KernelLibrary *Libs[2] = {Ref.get(), Cand ? Cand.get() : Ref.get()};
  for (const Instance *I : profiledInstances(P)) {
    BufferSet Bufs;
    if (Error E = Bufs.allocate(*I))
      return E;
    if (Error E =
            Bufs.prepare(generateInputs(*I, P.Seeds.front()), 0xFF, Stream))
      return E;
    Json InstOut;
    InstOut["instance"] = I->Name;
    for (Side S : {Side::Reference, Side::Candidate}) {
      Result.phase("energy " + I->Name + " " + sideName(S));
      const KernelLibrary &Lib = *Libs[static_cast<int>(S)];
      auto Launch = [&]() { return Lib.launch(*I, Bufs.launchArgs(), Stream); };
      auto Sync = [&]() { return syncKernels(Stream, "energy " + I->Name); };
      Json SideOut;
      Error E = measureEnergy(*Meter, Launch, Sync, EnergyMinSeconds, SideOut);
      if (E && E.status() == Status::Fault)
        return E;
      if (E)
        SideOut = {{"error", E.message()}};
      InstOut[sideName(S)] = std::move(SideOut);
    }
    Out["instances"].push_back(std::move(InstOut));
  }
  Result.root()["energy"] = std::move(Out);
  return Error::success();
}

Error Runner::metrics() {
  const KernelLibrary &C = Cand ? *Cand : *Ref;
  Json Out;
  Error E = collectMetrics(P, *Ref, C, Stream, &Flusher, Device.Ordinal,
                           progress(), Out);
  Result.root()["metrics"] = std::move(Out);
  return E;
}

} // namespace optiml
