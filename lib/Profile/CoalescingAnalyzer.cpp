//===- CoalescingAnalyzer.cpp - sectors per global request ----------------===//
//
// A warp's global request moves 4 sectors when its 32 lanes read contiguous
// 4-byte words and up to 32 when every lane hits its own sector. For a
// memory- or latency-bound kernel the surplus is bandwidth spent on bytes no
// thread asked for; a strided-access hint says which access it is.
//
//===----------------------------------------------------------------------===//

#include "optiml/Profile/Analyzers.h"
#include "optiml/Profile/TransformPriors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace optiml;

/// 32 lanes x 4 bytes in 32-byte sectors.
static constexpr double IdealSectorsPerRequest = 4;
/// Contiguous 16-byte accesses (float4) also move 16 sectors per request
/// (measured on an H200), so only above this is waste certain whatever
/// the access width.
static constexpr double WideSectorsPerRequest = 16;
/// With a strided-access hint the access is known to be narrow, so twice
/// the ideal already means half of every sector is wasted.
static constexpr double HintedSectorsPerRequest = 2 * IdealSectorsPerRequest;

namespace {
/// One direction's measurement.
struct Direction {
  const char *Noun;        ///< "loads"
  const char *EvidenceKey; ///< "global_load_sectors_per_request"
  const char *SiteTag;     ///< "/load:" in a site name
  std::optional<double> SectorsPerRequest;
};
} // namespace

static std::vector<Direction> directions(const KernelCounters &C) {
  return {{"loads", "global_load_sectors_per_request",
           "/load:", C.globalSectorsPerRequest(MemOp::Load)},
          {"stores", "global_store_sectors_per_request",
           "/store:", C.globalSectorsPerRequest(MemOp::Store)}};
}

static bool appliesTo(const Bottleneck &B, const ProfileInput &In) {
  if (B.Kind != BottleneckKind::MemoryBound &&
      B.Kind != BottleneckKind::LatencyBound)
    return false;
  return In.Counters && (In.Counters->globalSectorsPerRequest(MemOp::Load) ||
                         In.Counters->globalSectorsPerRequest(MemOp::Store));
}

/// The strided-access hint for direction \p D: one whose site is a \p D
/// access if any, else the first.
static const StaticHint *stridedHint(const ProfileInput &In,
                                     const Direction &D) {
  const StaticHint *First = nullptr;
  for (const StaticHint &H : In.Hints) {
    if (H.Kind != "strided-access")
      continue;
    if (H.Site.find(D.SiteTag) != std::string::npos)
      return &H;
    if (!First)
      First = &H;
  }
  return First;
}

/// The share of all global sectors beyond what contiguous 4-byte accesses
/// need: how much of the traffic is waste, whatever direction carries it.
static double excessSectorFraction(const KernelCounters &C) {
  double Sectors = 0, Excess = 0;
  auto Add = [&](const char *S, const char *R) {
    auto NS = C.get(S), NR = C.get(R);
    if (!NS || !NR)
      return;
    Sectors += *NS;
    Excess += std::max(0.0, *NS - IdealSectorsPerRequest * *NR);
  };
  Add(metric::GlobalLoadSectors, metric::GlobalLoadRequests);
  Add(metric::GlobalStoreSectors, metric::GlobalStoreRequests);
  return Sectors > 0 ? Excess / Sectors : 0;
}

/// \p V without decimals when it is whole: strides are counts.
static std::string number(double V) {
  if (V == std::floor(V) && std::abs(V) < 1e15)
    return std::to_string(static_cast<long long>(V));
  return llvm::formatv("{0:F2}", V).str();
}

/// "At transpose/store:out#0 (stride_elements 8192), " or "".
static std::string citeHint(const StaticHint *H) {
  if (!H || H->Site.empty())
    return "";
  std::string Out = "At " + H->Site;
  for (const auto &[Key, Value] : H->Evidence)
    if (llvm::StringRef(Key).starts_with("stride")) {
      Out += llvm::formatv(" ({0} {1})", Key, number(Value)).str();
      break;
    }
  return Out + ", ";
}

/// The rest of the sentence and the prior for \p Spr sectors per request;
/// \p Lead is the sentence so far.
static void advise(Finding &F, double Spr, const std::string &Lead) {
  if (Spr > WideSectorsPerRequest) {
    // Lanes far apart: only an exchange through shared memory (or a thread
    // mapping that follows the contiguous index) makes them coalesce.
    F.Guidance = Lead + ": neighbouring threads touch addresses far apart, so "
                        "exchange the data through a shared-memory tile.";
    F.Prior = priorFor(PriorCause::FarApartLanes);
    return;
  }
  // A short stride (interleaved fields): wide accesses fetch whole sectors
  // and use them.
  F.Guidance = Lead + ": a short stride wastes part of each sector, so load "
                      "whole sectors with vector accesses or stage them in "
                      "shared memory.";
  F.Prior = priorFor(PriorCause::ShortStride);
}

static std::vector<Finding> analyze(const Bottleneck &B,
                                    const ProfileInput &In) {
  std::vector<Direction> Dirs = directions(*In.Counters);
  const Direction *Worst = nullptr;
  for (const Direction &D : Dirs)
    if (D.SectorsPerRequest &&
        (!Worst || *D.SectorsPerRequest > *Worst->SectorsPerRequest))
      Worst = &D;
  if (!Worst)
    return {};
  const StaticHint *Hint = stridedHint(In, *Worst);
  double Threshold = Hint ? HintedSectorsPerRequest : WideSectorsPerRequest;
  double Spr = *Worst->SectorsPerRequest;
  if (Spr <= Threshold)
    return {};

  Finding F;
  F.Id = "uncoalesced-global";
  F.Stage = 2;
  for (const Direction &D : Dirs)
    if (D.SectorsPerRequest)
      F.Evidence.push_back({D.EvidenceKey, *D.SectorsPerRequest});
  F.Evidence.push_back({"ideal_sectors_per_request", IdealSectorsPerRequest});
  double Excess = excessSectorFraction(*In.Counters);
  F.Evidence.push_back({"excess_sector_fraction", Excess});
  if (Hint)
    for (const auto &[Key, Value] : Hint->Evidence)
      F.Evidence.push_back({"hint_" + Key, Value});
  F.Severity = std::clamp(Excess, 0.2, 1.0);
  std::string Text = llvm::formatv(
      "global {0} move {1:F1} sectors per warp request against {2} for "
      "contiguous 4-byte accesses",
      Worst->Noun, Spr, number(IdealSectorsPerRequest));
  std::string At = citeHint(Hint);
  if (At.empty())
    Text[0] = llvm::toUpper(Text[0]);
  advise(F, Spr, At + Text);
  return {F};
}

Analyzer optiml::coalescingAnalyzer() {
  return Analyzer("coalescing", appliesTo, analyze);
}
