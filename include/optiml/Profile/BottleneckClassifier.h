//===- BottleneckClassifier.h - roofline and speed of light -----*- C++ -*-===//
//
// Stage one of the micro-profiler. Speed of light (SM% against memory%)
// decides the class when the counters are there, the roofline when only
// bytes and time are, and the wave count overrides both when the grid is
// too small to load the GPU: then no per-thread change can help.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_BOTTLENECKCLASSIFIER_H
#define OPTIML_PROFILE_BOTTLENECKCLASSIFIER_H

#include "optiml/Profile/Bottleneck.h"
#include "optiml/Profile/ProfileInput.h"

namespace optiml {

struct ClassifierThresholds {
  /// Speed of light (%) above which a unit counts as the bottleneck; the
  /// value Nsight Compute's guidance uses.
  double HighThroughputPct = 60;
  /// Below this many waves the GPU is not filled.
  double MinWaves = 1.0;
  /// A memory-bound kernel whose DRAM share of the memory speed of light is
  /// below this is bound in L1/L2 (re-reads, uncoalesced accesses), not by
  /// DRAM.
  double CacheBoundDramShare = 0.5;
};

class BottleneckClassifier {
public:
  explicit BottleneckClassifier(ClassifierThresholds T = {}) : T(T) {}

  Bottleneck classify(const ProfileInput &In) const;

private:
  BottleneckKind decide(const Bottleneck &B) const;
  Finding memoryFinding(const Bottleneck &B) const;
  Finding computeFinding(const Bottleneck &B) const;
  Finding latencyFinding(const Bottleneck &B) const;
  Finding wavesFinding(const Bottleneck &B, const ProfileInput &In) const;

  ClassifierThresholds T;
};

/// Resident blocks per SM for \p In's launch: from the occupancy when
/// resource usage is known, else from the thread and block limits alone.
unsigned residentBlocksPerSM(const ProfileInput &In);

} // namespace optiml

#endif // OPTIML_PROFILE_BOTTLENECKCLASSIFIER_H
