//===- Verify.cpp - Correctness checks of a candidate ---------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Verify.h"
#include "DeviceVerifier.h"
#include "HostChecks.h"
#include "Inputs.h"

#include <algorithm>

namespace optiml {

Verifier::Verifier(const Plan &P, const KernelLibrary &Ref,
                   const KernelLibrary &Cand, cudaStream_t Stream,
                   FailureLog &Failures, ProgressFn Progress,
                   ReferenceCache *Cache)
    : P(P), Libs{&Ref, &Cand}, Stream(Stream), Failures(Failures),
      Progress(std::move(Progress)), Cache(Cache) {}

Error Verifier::run(std::vector<protocol::InstanceVerification> &Instances) {
  // The first failing instance ends verification: the candidate is rejected
  // either way, and its failures are already recorded.
  for (const Instance &I : P.Instances) {
    if (Error E = verifyInstance(I, Instances.emplace_back()))
      return E;
    if (!Instances.back().Passed)
      break;
  }
  return Error::success();
}

Error Verifier::verifyInstance(const Instance &I,
                               protocol::InstanceVerification &Out) {
  Out.Name = I.Name;
  Out.Passed = false;
  BufferSet Bufs;
  if (Error E = Bufs.allocate(I))
    return E.withContext("verify " + I.Name);
  bool InstancePassed = true;
  for (uint64_t Seed : P.Seeds) {
    protocol::SeedVerification &SeedOut = Out.Seeds.emplace_back();
    Error E = verifySeed(I, Bufs, Seed, SeedOut);
    InstancePassed = InstancePassed && !E && SeedOut.Passed;
    if (E)
      return E;
    if (!InstancePassed)
      break; // The first failing seed is enough to reject.
  }
  if (InstancePassed && P.EdgeSeed) {
    protocol::SeedVerification &SeedOut = Out.Seeds.emplace_back();
    SeedOut.Edge = true;
    if (Error E = verifySeed(I, Bufs, *P.EdgeSeed, SeedOut, /*Edge=*/true))
      return E;
    InstancePassed = SeedOut.Passed;
  }
  Out.Passed = InstancePassed;
  return Error::success();
}

Error Verifier::verifySeed(const Instance &I, BufferSet &Bufs, uint64_t Seed,
                           protocol::SeedVerification &Out, bool Edge) {
  Out.Seed = Seed;
  Out.Passed = false;
  std::shared_ptr<const HostInputs> Shared = sharedInputs(I, Seed, Edge);
  const HostInputs &Inputs = *Shared;
  HostChecks Checks(I, Seed, P.Tol, Failures);
  SideRuns Runs[2];
  SideCounts Counts[2];
  const HostOutputs *RefOut = nullptr;
  if (Error E = referenceSide(I, Bufs, Inputs, Seed, Runs[0], Counts[0], RefOut,
                              Edge))
    return E;
  Out.Reference = Counts[0];
  bool RefOk = Counts[0].clean();
  if (Edge) {
    std::string Skip =
        Checks.edgeSkipReason(RefOk ? *RefOut : HostOutputs(), RefOk);
    if (!Skip.empty()) {
      Out.Comparison = Skip;
      Out.Passed = true;
      return Error::success();
    }
  }
  // With the reference's outputs known, the candidate is checked on the
  // device; the host checks below run only to report what it found.
  std::string DeviceFinding;
  if (RefOk) {
    DeviceVerifier DV(P, I, Stream);
    bool Clean = false;
    std::vector<protocol::BufferComparison> Buffers;
    if (Error E = DV.run(*Libs[1], Bufs, Inputs, *RefOut, Poison, Clean,
                         DeviceFinding, Buffers)) {
      // The candidate's fault or rejected launch is its failure; a CUDA
      // failure of the runner's own (out of memory) is not.
      if (E.status() == Status::Fault || E.status() == Status::LaunchError)
        recordFatal(Side::Candidate, I, Seed, E);
      return E.withContext("verify " + I.Name + " seed " +
                           std::to_string(Seed) + " candidate");
    }
    if (Clean) {
      Out.Candidate = SideCounts();
      Out.Buffers = std::move(Buffers);
      Out.Passed = true;
      ++OnDevice;
      return Error::success();
    }
  }
  if (Error E = runSide(Side::Candidate, I, Bufs, Inputs, Seed, Runs[1],
                        Counts[1]))
    return E;
  Checks.checkRuns(Side::Candidate, Runs[1], Counts[1]);
  Out.Candidate = Counts[1];

  bool CandOk = Counts[1].clean();
  Out.Buffers.emplace();
  if (RefOk)
    CandOk =
        Checks.compareWithReference(*RefOut, Runs[1], *Out.Buffers) && CandOk;
  else
    Out.Comparison = "skipped: the reference failed its own checks";
  if (RefOk && CandOk) {
    // The device saw a bad run that the host's runs did not repeat: the
    // candidate's results vary from run to run.
    Checks.unrepeatedDeviceFinding(DeviceFinding);
    CandOk = false;
  }
  Out.Passed = RefOk && CandOk;
  Passed = Passed && RefOk && CandOk;
  return Error::success();
}

Error Verifier::referenceSide(const Instance &I, BufferSet &Bufs,
                              const HostInputs &Inputs, uint64_t Seed,
                              SideRuns &Runs, SideCounts &Counts,
                              const HostOutputs *&RefOut, bool Edge) {
  std::string Key = Cache ? ReferenceCache::keyOf(P, I, Seed, Edge) : "";
  if (Cache) {
    bool Damaged = false;
    RefOut = Cache->find(Key, Inputs, Damaged);
    if (Damaged)
      Progress("verify " + I.Name + " seed " + std::to_string(Seed) +
               ": the kept reference outputs changed since they were made; "
               "running the reference again");
    if (RefOut) {
      ++Reused;
      return Error::success();
    }
  }
  if (Error E = runSide(Side::Reference, I, Bufs, Inputs, Seed, Runs, Counts))
    return E;
  HostChecks(I, Seed, P.Tol, Failures).checkRuns(Side::Reference, Runs, Counts);
  RefOut = &Runs.Out[0];
  if (Cache && Counts.clean())
    Cache->store(Key, Runs.Out[0], Inputs);
  return Error::success();
}

Error Verifier::runSide(Side S, const Instance &I, BufferSet &Bufs,
                        const HostInputs &Inputs, uint64_t Seed, SideRuns &Runs,
                        SideCounts &Counts) {
  const KernelLibrary &Lib = *Libs[static_cast<int>(S)];
  std::string Where =
      "verify " + I.Name + " seed " + std::to_string(Seed) + " " + sideName(S);
  HostChecks Checks(I, Seed, P.Tol, Failures);
  for (int Run = 0; Run < 2; ++Run) {
    Progress(Where + " run " + std::to_string(Run + 1) + "/2");
    Runs.Out[Run].assign(I.Args.size(), {});
    if (Error E = Bufs.prepare(Inputs, Poison[Run], Stream))
      return E.withContext(Where);
    Error E = Lib.launch(I, Bufs, Stream);
    if (!E)
      E = syncKernels(Stream, "kernel '" + Lib.kernelName() + "'");
    if (E) {
      recordFatal(S, I, Seed, E);
      return E.withContext(Where);
    }
    // Red zones and inputs are checked per run; a damaged zone is reported
    // once per run at most, which the FailureLog folds together.
    SideCounts RunCounts;
    for (size_t K = 0; K < I.Args.size(); ++K) {
      const Arg &A = I.Args[K];
      if (!A.isBuffer())
        continue;
      std::vector<unsigned char> Host;
      RedZoneReport Zones;
      if (Error DownloadErr = Bufs.buffer(K).download(Host, Zones, Stream))
        return DownloadErr.withContext(Where);
      Checks.checkRedZone(S, Run, A, Zones, RunCounts);
      if (A.Role == ArgRole::In)
        Checks.checkInputUnchanged(S, Run, A, Inputs[K], Host, RunCounts);
      else
        Runs.Out[Run][K] = std::move(Host);
    }
    Counts.RedZoneDamagedBytes =
        std::max(Counts.RedZoneDamagedBytes, RunCounts.RedZoneDamagedBytes);
    Counts.InputsModified =
        std::max(Counts.InputsModified, RunCounts.InputsModified);
  }
  return Error::success();
}

void Verifier::recordFatal(Side S, const Instance &I, uint64_t Seed,
                           const Error &E) {
  // Not prefixed for the reference: a fault ends the run whichever side hit
  // it.
  Failure F;
  F.Instance = I.Name;
  F.Seed = Seed;
  F.Where = S;
  F.Kind = E.status() == Status::LaunchError ? "launch_error" : "fault";
  F.Message = E.message();
  Failures.add(std::move(F));
  Passed = false;
}

} // namespace optiml
