//===- StaticHintAnalyzer.cpp - facts from static analysis ----------------===//
//
// Where counters are absent (no GPU, no profiling permission) the static
// analysis still knows a strided access or a reduction loop; each hint
// becomes a finding with the prior its kind implies. Hints are weighed
// down when counters exist, since measured evidence is stronger.
//
//===----------------------------------------------------------------------===//

#include "optiml/Profile/Analyzers.h"
#include "optiml/Profile/TransformPriors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace optiml;

namespace {
struct HintKind {
  const char *Kind;
  const char *Guidance;
  PriorCause Cause;
};
} // namespace

/// What each kind of fact means and the cause it reports (its prior is in
/// TransformPriors.def); kept as data so a reader sees every mapping in one
/// place.
static const std::vector<HintKind> &knownKinds() {
  static const std::vector<HintKind> Kinds = {
      {"strided-access",
       "neighbouring threads access addresses far apart, so each warp request "
       "touches many sectors: stage through shared memory to coalesce.",
       PriorCause::StridedAccessHint},
      {"reused-load",
       "the same elements are loaded by many threads: stage the reused tile in "
       "shared memory.",
       PriorCause::ReusedLoadHint},
      {"reduction-loop",
       "each thread reduces a long row alone: a warp or block per row with "
       "shuffles spreads the work.",
       PriorCause::ReductionLoopHint},
      {"transcendental",
       "transcendental functions dominate: fast-math intrinsics are cheaper "
       "(numerics change within the tolerance).",
       PriorCause::TranscendentalHint},
      {"invariant-index",
       "index arithmetic is recomputed in the loop: hoist it.",
       PriorCause::InvariantIndexHint},
      {"contiguous-scalar-access",
       "each thread reads consecutive scalars: wide loads move them in fewer "
       "instructions.",
       PriorCause::ContiguousScalarHint},
      {"short-loop", "a loop with a small known trip count: unroll it.",
       PriorCause::ShortLoopHint},
      {"stride-loop",
       "a loop stepping by the threads' count runs one iteration's loads at "
       "a time: unrolled with the copies written out (unroll, "
       "mode=explicit), several are in flight.",
       PriorCause::StrideLoopHint},
  };
  return Kinds;
}

static const HintKind *lookup(llvm::StringRef Kind) {
  for (const HintKind &K : knownKinds())
    if (Kind == K.Kind)
      return &K;
  return nullptr;
}

static bool appliesTo(const Bottleneck &B, const ProfileInput &In) {
  return !In.Hints.empty();
}

/// One finding per kind, at its first hint: a kernel with five strided
/// reads has one cause, and five findings would outweigh the counters.
static std::vector<Finding> analyze(const Bottleneck &B,
                                    const ProfileInput &In) {
  std::vector<Finding> Out;
  llvm::StringSet<> Seen;
  for (const StaticHint &H : In.Hints) {
    const HintKind *K = lookup(H.Kind);
    if ((!K && H.Prior.empty()) || !Seen.insert(H.Kind).second)
      continue;
    Finding F;
    F.Id = "hint:" + H.Kind;
    F.Stage = 2;
    F.Severity = In.Counters ? 0.3 : 0.6;
    F.Evidence = H.Evidence;
    std::string Text =
        K ? K->Guidance : "static analysis reports " + H.Kind + ".";
    if (H.Site.empty())
      Text[0] = llvm::toUpper(Text[0]);
    F.Guidance = H.Site.empty() ? Text : "At " + H.Site + ": " + Text;
    F.Prior = H.Prior.empty() ? priorFor(K->Cause) : H.Prior;
    Out.push_back(std::move(F));
  }
  return Out;
}

Analyzer optiml::staticHintAnalyzer() {
  return Analyzer("static-hints", appliesTo, analyze);
}
