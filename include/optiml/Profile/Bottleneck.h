//===- Bottleneck.h - stage one: what bounds the kernel ---------*- C++ -*-===//
//
// The class decides which stage-two analyzers are worth running, as in
// KernelPro: an occupancy limiter matters for a latency-bound kernel, cache
// hit rates for a memory-bound one.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_BOTTLENECK_H
#define OPTIML_PROFILE_BOTTLENECK_H

#include "optiml/Profile/Finding.h"
#include "optiml/Profile/Occupancy.h"
#include "optiml/Profile/Roofline.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <vector>

namespace optiml {

enum class BottleneckKind {
  Unknown,      ///< No counters to decide on.
  MemoryBound,  ///< Memory speed of light high and above SM's.
  ComputeBound, ///< SM speed of light high and above memory's.
  LatencyBound, ///< Both low: the SMs wait, on memory or on dependencies.
  TooFewWaves,  ///< The grid does not fill the GPU once.
};

llvm::StringRef toString(BottleneckKind K);

struct Bottleneck {
  BottleneckKind Kind = BottleneckKind::Unknown;
  std::optional<Roofline> Roof;
  std::optional<double> SmPct;  ///< SM speed of light, %.
  std::optional<double> MemPct; ///< Memory speed of light, %.
  std::optional<Occupancy> Occ; ///< Theoretical, when usage is known.
  std::optional<double> Waves;  ///< Grid blocks over SMs x resident blocks.
  std::vector<Finding> Findings;
};

} // namespace optiml

#endif // OPTIML_PROFILE_BOTTLENECK_H
