//===- CacheAnalyzer.cpp - L1 and L2 hit rates ----------------------------===//
//
// For a memory-bound kernel the hit rates tell re-reads served by the
// caches (stage the reused tile in shared memory) from streaming traffic
// (move fewer bytes) and poor locality in L2 (tile for reuse).
//
//===----------------------------------------------------------------------===//

#include "optiml/Profile/Analyzers.h"
#include "optiml/Profile/TransformPriors.h"

#include "llvm/Support/FormatVariadic.h"

using namespace optiml;

/// Thresholds, as fractions: a hit rate this high means real reuse, this
/// low means none, and DRAM this busy means streaming traffic that no
/// locality can reduce.
static constexpr double HighHit = 0.5, LowHit = 0.2, BusyDram = 0.6;

static bool appliesTo(const Bottleneck &B, const ProfileInput &In) {
  return B.Kind == BottleneckKind::MemoryBound && In.Counters &&
         (In.Counters->get(metric::L1HitRate) ||
          In.Counters->get(metric::L2HitRate));
}

/// A finding about hit rates, with both rates as its evidence.
static Finding hitFinding(std::string Id, double Severity, double L1, double L2,
                          PriorCause Cause, std::string Guidance) {
  Finding F;
  F.Id = std::move(Id);
  F.Stage = 2;
  F.Severity = Severity;
  if (L1 >= 0)
    F.Evidence.push_back({"l1_hit_rate", L1});
  if (L2 >= 0)
    F.Evidence.push_back({"l2_hit_rate", L2});
  F.Guidance = std::move(Guidance);
  F.Prior = priorFor(Cause);
  return F;
}

static std::vector<Finding> analyze(const Bottleneck &B,
                                    const ProfileInput &In) {
  double L1 = In.Counters->get(metric::L1HitRate).value_or(-100) / 100;
  double L2 = In.Counters->get(metric::L2HitRate).value_or(-100) / 100;
  double Dram = B.Roof ? B.Roof->DramFraction : 0;
  bool CacheBound = !B.Findings.empty() && B.Findings[0].Id == "cache-bound";
  std::vector<Finding> Out;
  if (CacheBound && L1 >= HighHit)
    Out.push_back(hitFinding(
        "l1-reuse", 0.8, L1, L2, PriorCause::L1Reuse,
        llvm::formatv("L1 serves {0:F0}% of sectors: threads re-read the same "
                      "data through L1, which shared-memory tiles and "
                      "register blocking serve cheaper.",
                      100 * L1)));
  else if (CacheBound && L1 >= 0 && L1 < LowHit)
    Out.push_back(hitFinding(
        "uncoalesced", 0.8, L1, L2, PriorCause::WastedSectors,
        llvm::formatv("Only {0:F0}% of L1 sectors hit while DRAM is far from "
                      "saturated: accesses are strided and waste sectors, so "
                      "reorder them through shared memory or widen them.",
                      100 * L1)));
  if (L2 >= 0 && L2 < HighHit && Dram < BusyDram)
    Out.push_back(hitFinding(
        "l2-locality", 0.5, L1, L2, PriorCause::L2Locality,
        llvm::formatv("L2 hits only {0:F0}% of sectors: data comes from DRAM "
                      "more than once, so tile the loops for locality.",
                      100 * L2)));
  return Out;
}

Analyzer optiml::cacheAnalyzer() {
  return Analyzer("caches", appliesTo, analyze);
}
