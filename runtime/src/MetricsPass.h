//===- MetricsPass.h - The hardware-counter pass ----------------*- C++ -*-===//
//
// Part of OptiML. Runs after timing, never during it: profiling serializes
// and replays kernels, which would distort the durations.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_METRICSPASS_H
#define OPTIML_RUNTIME_METRICSPASS_H

#include "KernelLibrary.h"
#include "L2Flush.h"
#include "Plan.h"
#include "Progress.h"

#include "optiml/Protocol/MetricsReport.h"

#include <cuda_runtime.h>
#include <map>
#include <string>

namespace optiml {

/// The reference's counters per ReferenceCache::keyOf, kept by a serving
/// runner: the reference is the same kernel on the same inputs for every
/// candidate, so it is profiled once.
using ReferenceMetrics = std::map<std::string, protocol::SideMetrics>;

/// Collects the default metrics for both sides on profiledInstances(P) and
/// fills the result's "metrics" object. Profiler problems (no permission,
/// unsupported device, ...) become {"error": "..."} in \p Out and are not
/// returned; only a kernel fault, which kills the context, is. With \p Kept,
/// the reference's counters come from it when it has them, and go into it
/// when it does not.
Error collectMetrics(const Plan &P, const KernelLibrary &Ref,
                     const KernelLibrary &Cand, cudaStream_t Stream,
                     L2Flusher *Flusher, int Ordinal, ProgressFn Progress,
                     protocol::MetricsReport &Out,
                     ReferenceMetrics *Kept = nullptr);

} // namespace optiml

#endif // OPTIML_RUNTIME_METRICSPASS_H
