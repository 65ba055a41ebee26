//===- RecordedProfile.cpp - what the database knows of a kernel ---------===//

#include "driver/Search/RecordedProfile.h"
#include "optiml/Profile/MicroProfiler.h"
#include "optiml/Search/ProfileGuidedPriors.h"
#include "optiml/Search/RecordingMeasurer.h"

#include <nlohmann/json.hpp>

using namespace optiml;

/// The newest successful record of the source itself, with its runner
/// result.
static llvm::Expected<std::optional<CandidateRecord>>
newestRecord(Database &Db, const KernelSource &Source,
             const KernelInfo &Kernel) {
  auto Kernels = Db.kernels();
  if (!Kernels)
    return Kernels.takeError();
  std::optional<CandidateRecord> Best;
  for (const KernelRecord &K : *Kernels) {
    if (K.Hash != Source.hash() || K.Name != Kernel.QualifiedName)
      continue;
    auto R = Db.find(K.Id, Source.hash());
    if (!R)
      return R.takeError();
    if (*R && (*R)->Status == "ok" && !(*R)->Metrics.empty() &&
        (!Best || (*R)->CreatedAt >= Best->CreatedAt))
      Best = **R;
  }
  return Best;
}

std::optional<DeviceFacts>
optiml::deviceFactsOf(const protocol::RunResult &Runner) {
  if (!Runner.Device)
    return std::nullopt;
  DeviceFacts F;
  F.Name = Runner.Device->Name;
  F.SMs = static_cast<unsigned>(Runner.Device->Sms);
  F.DramBytesPerSecond = Runner.Device->Peaks.DramBytesPerS;
  F.Fp32FlopsPerSecond = Runner.Device->Peaks.Fp32FlopsPerS;
  return F;
}

std::optional<ConcreteInstance>
optiml::firstInstanceOf(const KernelSpec *Spec, const KernelInfo &Kernel) {
  if (!Spec)
    return std::nullopt;
  auto Instances = Spec->instantiate(Kernel);
  if (!Instances || Instances->empty()) {
    if (!Instances)
      llvm::consumeError(Instances.takeError());
    return std::nullopt;
  }
  return Instances->front();
}

std::optional<LaunchGeometry> optiml::firstLaunchOf(const KernelSpec *Spec,
                                                    const KernelInfo &Kernel) {
  std::optional<ConcreteInstance> First = firstInstanceOf(Spec, Kernel);
  if (!First)
    return std::nullopt;
  return launchOf(*First);
}

LaunchGeometry optiml::launchOf(const ConcreteInstance &I) {
  LaunchGeometry G;
  G.GridBlocks = I.Grid[0] * I.Grid[1] * I.Grid[2];
  G.ThreadsPerBlock = I.Block[0] * I.Block[1] * I.Block[2];
  G.DynamicSharedBytes = I.SharedMemory;
  return G;
}

llvm::Expected<RecordedProfile>
RecordedProfile::find(Database &Db, const KernelSource &Source,
                      const KernelInfo &Kernel, const KernelSpec *Spec,
                      llvm::StringRef Arch) {
  RecordedProfile Out;
  auto Record = newestRecord(Db, Source, Kernel);
  if (!Record)
    return Record.takeError();
  if (!*Record)
    return Out;
  Measurement M = fromRecord(**Record);
  if (!M.Runner)
    return Out;
  Out.Device = deviceFactsOf(*M.Runner);
  ProfileInput In = profileInput(M);
  In.Geometry = firstLaunchOf(Spec, Kernel);
  if (auto Limits = DeviceLimits::forArch(Arch))
    In.Limits = *Limits;
  ProfileReport R = MicroProfiler::standard().profile(In);
  Out.Bottleneck = toString(R.Stage1.Kind).str();
  Out.Findings = R.Findings;
  return Out;
}
