//===- ProfileInput.h - everything the analyzers may look at ----*- C++ -*-===//
//
// Each part is optional: counters need a GPU and profiling permission,
// resource usage needs a build, geometry needs the spec, hints need the
// static analysis. Analyzers run on what is there and say nothing where
// their evidence is missing.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_PROFILEINPUT_H
#define OPTIML_PROFILE_PROFILEINPUT_H

#include "optiml/Eval/ResourceUsage.h"
#include "optiml/Eval/SassMix.h"
#include "optiml/Profile/DeviceLimits.h"
#include "optiml/Profile/DevicePeaks.h"
#include "optiml/Profile/Finding.h"
#include "optiml/Profile/KernelCounters.h"

#include <cstdint>
#include <optional>

namespace optiml {

/// The launch the counters were taken for.
struct LaunchGeometry {
  uint64_t GridBlocks = 0; ///< Blocks in the grid (x * y * z).
  unsigned ThreadsPerBlock = 0;
  unsigned DynamicSharedBytes = 0;
};

/// A fact from static analysis, used where counters cannot tell (no GPU,
/// no profiling permission) or to say where in the source a cause lies.
struct StaticHint {
  /// "strided-access", "reused-load", "reduction-loop", "transcendental",
  /// "invariant-index", "contiguous-scalar-access", "short-loop",
  /// "stride-loop" are known
  /// to StaticHintAnalyzer; others ("missing-restrict": the stage-one
  /// classes already weigh restrict) are skipped unless given a Prior.
  std::string Kind;
  std::string Site; ///< Where: "transpose/load:in#0".
  std::vector<std::pair<std::string, double>> Evidence;
  TransformPrior Prior; ///< Overrides the known kind's prior when given.
};

struct ProfileInput {
  std::optional<KernelCounters> Counters;
  std::optional<DevicePeaks> Peaks;
  std::optional<ResourceUsage> Usage;
  std::optional<SassMix> Sass; ///< Needs a build and cuobjdump.
  std::optional<LaunchGeometry> Geometry;
  DeviceLimits Limits = DeviceLimits::sm90();
  std::vector<StaticHint> Hints;
};

} // namespace optiml

#endif // OPTIML_PROFILE_PROFILEINPUT_H
