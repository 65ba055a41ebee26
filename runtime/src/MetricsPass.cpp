//===- MetricsPass.cpp - The hardware-counter pass ------------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "MetricsPass.h"
#include "Buffers.h"
#include "RangeProfiler.h"
#include "ReferenceCache.h"

namespace optiml {

namespace {

/// A readable message for the failure everybody hits first.
std::string explain(const Error &E) {
  if (E.message().find("INSUFFICIENT_PRIVILEGES") == std::string::npos)
    return E.message();
  return "no permission to read GPU performance counters "
         "(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES): run as root, or load the "
         "NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0; see "
         "https://developer.nvidia.com/ERR_NVGPUCTRPERM. Detail: " +
         E.message();
}

std::vector<std::string> withoutSass(const std::vector<std::string> &Names) {
  std::vector<std::string> Out;
  for (const std::string &N : Names)
    if (N.find("__sass_") == std::string::npos)
      Out.push_back(N);
  return Out;
}

/// The launch of the plan's kernel with the most threads in \p Seq (the
/// first of equals), alone; empty when \p Seq is.
std::vector<protocol::Step>
countedLaunch(const std::vector<protocol::Step> &Seq) {
  const protocol::Step *Best = nullptr;
  auto Threads = [](const protocol::Step &S) {
    uint64_t N = 1;
    for (size_t D = 0; D < 3; ++D)
      N *= uint64_t(S.Geometry.Grid[D]) * S.Geometry.Block[D];
    return N;
  };
  for (const protocol::Step &S : Seq)
    if (S.Kernel == 0 && (!Best || Threads(S) > Threads(*Best)))
      Best = &S;
  if (!Best)
    return {};
  return {*Best};
}

/// Profiles one side. SASS-based metrics (the FP32 instruction counts) need
/// instrumentation that some setups refuse; when the full set fails they are
/// dropped and the hardware-counter metrics retried once.
Error profileSide(RangeProfiler &RP, const std::vector<std::string> &Metrics,
                  const KernelLibrary &Lib, const Instance &I, BufferSet &Bufs,
                  cudaStream_t Stream, L2Flusher *Flusher,
                  protocol::SideMetrics &Out) {
  auto Prepare = [&]() -> Error {
    if (Error E = Bufs.restoreInOut(Stream))
      return E;
    return Flusher ? Flusher->flush(Stream) : Error::success();
  };
  // A sequence's counters are those of one launch of the kernel, its
  // largest: kernel replay of every launch of a long sequence takes
  // minutes, and the counters describe the kernel, not the sequence.
  std::vector<protocol::Step> One = countedLaunch(I.sequenceOf(Lib.side()));
  auto Launch = [&]() {
    return One.empty() ? Lib.launch(I, Bufs, Stream)
                       : Lib.launchSteps(One, Bufs, Stream);
  };
  auto Sync = [&]() { return syncKernels(Stream, "profiling " + I.Name); };

  std::map<std::string, double> Values;
  size_t Passes = 0;
  Error E = RP.profile(Metrics, Prepare, Launch, Sync, Values, Passes);
  std::vector<std::string> Reduced = withoutSass(Metrics);
  if (E && E.status() != Status::Fault && Reduced.size() != Metrics.size()) {
    Out.SassMetricsDropped = E.message();
    Values.clear();
    E = RP.profile(Reduced, Prepare, Launch, Sync, Values, Passes);
  }
  if (E)
    return E;
  Out.Values = std::move(Values);
  Out.Passes = Passes;
  return Error::success();
}

Error profileInstance(RangeProfiler &RP,
                      const std::vector<std::string> &Metrics, const Plan &P,
                      const KernelLibrary *Libs[2], const Instance &I,
                      cudaStream_t Stream, L2Flusher *Flusher,
                      const ProgressFn &Progress,
                      protocol::InstanceMetrics &Out, ReferenceMetrics *Kept) {
  Out.Instance = I.Name;
  BufferSet Bufs;
  if (Error E = Bufs.loadInputs(I, P.Seeds.front(), Stream))
    return E;
  if (Error E = Bufs.snapshotInOut(Stream))
    return E;
  std::string Key =
      Kept ? ReferenceCache::keyOf(P, I, P.Seeds.front()) : std::string();
  for (Side S : protocol::BothSides) {
    if (S == Side::Reference && Kept && Kept->count(Key)) {
      Progress("metrics " + I.Name + " reference: kept from an earlier plan");
      Out.Reference = (*Kept)[Key];
      continue;
    }
    Progress("metrics " + I.Name + " " + sideName(S));
    protocol::SideMetrics SideOut;
    if (Error E = profileSide(RP, Metrics, *Libs[static_cast<int>(S)], I, Bufs,
                              Stream, Flusher, SideOut))
      return E;
    if (S == Side::Reference && Kept)
      (*Kept)[Key] = SideOut;
    (S == Side::Reference ? Out.Reference : Out.Candidate) = std::move(SideOut);
  }
  return Error::success();
}

} // namespace

Error collectMetrics(const Plan &P, const KernelLibrary &Ref,
                     const KernelLibrary &Cand, cudaStream_t Stream,
                     L2Flusher *Flusher, int Ordinal, ProgressFn Progress,
                     protocol::MetricsReport &Out, ReferenceMetrics *Kept) {
  Out = protocol::MetricsReport();
  Out.Api = "CUPTI Range Profiler, auto range, kernel replay";
  Progress("metrics: initializing the CUPTI profiler");
  std::unique_ptr<RangeProfiler> RP;
  std::vector<std::string> Supported, Unsupported;
  Error E = RangeProfiler::create(Ordinal, RP);
  if (!E)
    E = RP->partition(defaultMetrics(), Supported, Unsupported);
  if (E) {
    Out.Error = explain(E);
    return Error::success();
  }
  Out.Chip = RP->chipName();
  Out.Unsupported = Unsupported;
  Out.Instances.emplace();
  const KernelLibrary *Libs[2] = {&Ref, &Cand};
  for (const Instance *I : profiledInstances(P)) {
    protocol::InstanceMetrics &InstOut = Out.Instances->emplace_back();
    Error Failed = profileInstance(*RP, Supported, P, Libs, *I, Stream, Flusher,
                                   Progress, InstOut, Kept);
    if (Failed && Failed.status() == Status::Fault)
      return Failed;
    if (Failed) {
      Out.Error = explain(Failed);
      return Error::success();
    }
  }
  return Error::success();
}

} // namespace optiml
