//===- BottleneckClassifier.cpp - roofline and speed of light -------------===//

#include "optiml/Profile/BottleneckClassifier.h"
#include "optiml/Profile/TransformPriors.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace optiml;

unsigned optiml::residentBlocksPerSM(const ProfileInput &In) {
  if (!In.Geometry)
    return 0;
  unsigned Registers = In.Usage ? In.Usage->Registers : 0;
  unsigned Shared =
      (In.Usage ? In.Usage->SharedBytes : 0) + In.Geometry->DynamicSharedBytes;
  return computeOccupancy(In.Limits, In.Geometry->ThreadsPerBlock, Registers,
                          Shared)
      .BlocksPerSM;
}

static void addRooflineEvidence(Finding &F, const Bottleneck &B) {
  if (B.SmPct)
    F.Evidence.push_back({"sm_pct", *B.SmPct});
  if (B.MemPct)
    F.Evidence.push_back({"mem_pct", *B.MemPct});
  if (!B.Roof)
    return;
  F.Evidence.push_back({"dram_fraction", B.Roof->DramFraction});
  F.Evidence.push_back({"compute_fraction", B.Roof->ComputeFraction});
  F.Evidence.push_back({"arithmetic_intensity", B.Roof->ArithmeticIntensity});
  F.Evidence.push_back({"ridge_point", B.Roof->RidgePoint});
  F.Evidence.push_back({"roofline_fraction", B.Roof->Fraction});
}

/// Room left under the roofline: a kernel at 95% of it has little to gain.
static double severity(const Bottleneck &B) {
  if (!B.Roof)
    return 0.5;
  return std::clamp(1.0 - B.Roof->Fraction, 0.1, 1.0);
}

static std::string pct(std::optional<double> V) {
  return V ? llvm::formatv("{0:F1}%", *V).str() : std::string("?");
}

Bottleneck BottleneckClassifier::classify(const ProfileInput &In) const {
  Bottleneck B;
  if (In.Counters) {
    if (In.Peaks)
      B.Roof = computeRoofline(*In.Counters, *In.Peaks);
    B.SmPct = In.Counters->get(metric::SmThroughput);
    B.MemPct = In.Counters->get(metric::MemThroughput);
  }
  if (In.Geometry && In.Usage)
    B.Occ = computeOccupancy(
        In.Limits, In.Geometry->ThreadsPerBlock, In.Usage->Registers,
        In.Usage->SharedBytes + In.Geometry->DynamicSharedBytes);
  unsigned Resident = residentBlocksPerSM(In);
  if (In.Geometry && In.Peaks && In.Peaks->SMs && Resident)
    B.Waves = double(In.Geometry->GridBlocks) / (In.Peaks->SMs * Resident);
  B.Kind = decide(B);
  switch (B.Kind) {
  case BottleneckKind::MemoryBound:
    B.Findings.push_back(memoryFinding(B));
    break;
  case BottleneckKind::ComputeBound:
    B.Findings.push_back(computeFinding(B));
    break;
  case BottleneckKind::LatencyBound:
    B.Findings.push_back(latencyFinding(B));
    break;
  case BottleneckKind::TooFewWaves:
    B.Findings.push_back(wavesFinding(B, In));
    break;
  case BottleneckKind::Unknown:
    break;
  }
  return B;
}

BottleneckKind BottleneckClassifier::decide(const Bottleneck &B) const {
  bool HaveSol = B.SmPct && B.MemPct;
  double Top = HaveSol ? std::max(*B.SmPct, *B.MemPct) : 0;
  if (!HaveSol && B.Roof)
    Top = 100 * std::max(B.Roof->DramFraction, B.Roof->ComputeFraction);
  bool Busy = Top >= T.HighThroughputPct;
  if (B.Waves && *B.Waves < T.MinWaves && !Busy)
    return BottleneckKind::TooFewWaves;
  if (HaveSol) {
    if (!Busy)
      return BottleneckKind::LatencyBound;
    return *B.MemPct >= *B.SmPct ? BottleneckKind::MemoryBound
                                 : BottleneckKind::ComputeBound;
  }
  if (B.Roof) {
    if (!Busy)
      return BottleneckKind::LatencyBound;
    return B.Roof->DramFraction >= B.Roof->ComputeFraction
               ? BottleneckKind::MemoryBound
               : BottleneckKind::ComputeBound;
  }
  return BottleneckKind::Unknown;
}

/// A stage-one finding: the class \p Id, weighed by the room left under the
/// roofline, with the roofline's numbers and \p Cause's prior.
static Finding classFinding(const char *Id, PriorCause Cause,
                            const Bottleneck &B, std::string Guidance) {
  Finding F;
  F.Id = Id;
  F.Severity = severity(B);
  addRooflineEvidence(F, B);
  F.Guidance = std::move(Guidance);
  F.Prior = priorFor(Cause);
  return F;
}

Finding BottleneckClassifier::memoryFinding(const Bottleneck &B) const {
  double Dram = B.Roof ? B.Roof->DramFraction : 1;
  // Memory% counts L1, L2 and DRAM; DRAM far below it means the traffic
  // that saturates the pipes never reaches DRAM: re-reads or wasted sectors.
  double Share = B.MemPct && *B.MemPct > 0 ? 100 * Dram / *B.MemPct : 1;
  Finding F =
      B.Roof && Share < T.CacheBoundDramShare
          ? classFinding(
                "cache-bound", PriorCause::CacheBound, B,
                llvm::formatv("The memory pipelines are {0} busy but DRAM "
                              "moves only {1:F1}% of its peak: data is "
                              "re-read through L1/L2 or accessed uncoalesced, "
                              "so stage reused tiles in shared memory.",
                              pct(B.MemPct), 100 * Dram))
          : classFinding(
                "dram-bound", PriorCause::DramBound, B,
                llvm::formatv("DRAM bandwidth is at {0:F1}% of peak, so at "
                              "most {1:F2}x is left: move fewer bytes (wider "
                              "accesses, no redundant loads, fewer passes).",
                              100 * Dram, Dram > 0 ? 1 / Dram : 0.0));
  F.Evidence.push_back({"dram_share_of_mem", Share});
  return F;
}

Finding BottleneckClassifier::computeFinding(const Bottleneck &B) const {
  return classFinding(
      "compute-bound", PriorCause::ComputeBound, B,
      llvm::formatv(
          "The SMs are {0} busy with FP32 at {1:F1}% of peak: cut "
          "instructions per result (hoisted index arithmetic, unrolling, "
          "fast math).",
          pct(B.SmPct), B.Roof ? 100 * B.Roof->ComputeFraction : 0.0));
}

Finding BottleneckClassifier::latencyFinding(const Bottleneck &B) const {
  return classFinding(
      "latency-bound", PriorCause::LatencyBound, B,
      llvm::formatv("Neither the SMs ({0}) nor memory ({1}) are busy: warps "
                    "wait, so keep more of them in flight or give each thread "
                    "independent work.",
                    pct(B.SmPct), pct(B.MemPct)));
}

Finding BottleneckClassifier::wavesFinding(const Bottleneck &B,
                                           const ProfileInput &In) const {
  unsigned Resident = residentBlocksPerSM(In);
  Finding F = classFinding(
      "too-few-waves", PriorCause::TooFewWaves, B,
      llvm::formatv("The grid's {0} blocks fill {1:F2} of one wave ({2} SMs "
                    "x {3} resident blocks): spread the work over more, "
                    "smaller blocks or a block per row.",
                    In.Geometry->GridBlocks, *B.Waves, In.Peaks->SMs,
                    Resident));
  F.Severity = 1.0; // Most of the GPU idles whatever the roofline says.
  F.Evidence.push_back({"grid_blocks", double(In.Geometry->GridBlocks)});
  F.Evidence.push_back({"sms", double(In.Peaks->SMs)});
  F.Evidence.push_back({"resident_blocks_per_sm", double(Resident)});
  F.Evidence.push_back({"waves", *B.Waves});
  return F;
}
