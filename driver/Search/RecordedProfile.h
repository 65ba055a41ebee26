//===- RecordedProfile.h - what the database knows of a kernel -*- C++ -*-===//
//
// --propose runs without a GPU, yet a kernel that was measured before
// (--optimize, on any machine that shares the database) has counters on
// record: its newest successful measurement of this exact source gives the
// device and, through the micro-profiler, the bottleneck and the findings
// the prompt carries.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_RECORDEDPROFILE_H
#define OPTIML_DRIVER_RECORDEDPROFILE_H

#include "optiml/DB/Database.h"
#include "optiml/IR/KernelInfo.h"
#include "optiml/IR/KernelSource.h"
#include "optiml/LLM/Proposer.h"
#include "optiml/Profile/ProfileInput.h"
#include "optiml/Protocol/RunResult.h"
#include "optiml/Spec/KernelSpec.h"

namespace optiml {

struct RecordedProfile {
  std::optional<DeviceFacts> Device;
  std::string Bottleneck;
  std::vector<Finding> Findings;

  /// From the newest `ok` record of \p Source for kernel \p Kernel (any
  /// device, spec and toolchain); empty when there is none.
  static llvm::Expected<RecordedProfile>
  find(Database &Db, const KernelSource &Source, const KernelInfo &Kernel,
       const KernelSpec *Spec, llvm::StringRef Arch);
};

/// The device facts a prompt carries, from a runner's result; nothing when
/// the result does not name its device.
std::optional<DeviceFacts> deviceFactsOf(const protocol::RunResult &Runner);

/// \p Spec's first instance of \p Kernel; nothing without a spec or when
/// it does not instantiate.
std::optional<ConcreteInstance> firstInstanceOf(const KernelSpec *Spec,
                                                const KernelInfo &Kernel);

/// \p I's launch, as the profiler reads it.
LaunchGeometry launchOf(const ConcreteInstance &I);

/// The launch of \p Spec's first instance of \p Kernel (firstInstanceOf).
std::optional<LaunchGeometry> firstLaunchOf(const KernelSpec *Spec,
                                            const KernelInfo &Kernel);

} // namespace optiml

#endif // OPTIML_DRIVER_RECORDEDPROFILE_H
