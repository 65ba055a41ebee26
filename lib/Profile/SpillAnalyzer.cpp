//===- SpillAnalyzer.cpp - local-memory spills ----------------------------===//
//
// Spills turn register traffic into local-memory traffic through L1: the
// resource report shows them at no GPU cost, so this runs whenever a build
// reported usage.
//
//===----------------------------------------------------------------------===//

#include "optiml/Profile/Analyzers.h"
#include "optiml/Profile/TransformPriors.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace optiml;

static bool appliesTo(const Bottleneck &B, const ProfileInput &In) {
  return In.Usage && (In.Usage->SpillStoreBytes + In.Usage->SpillLoadBytes +
                          In.Usage->StackFrameBytes >
                      0);
}

static std::vector<Finding> analyze(const Bottleneck &B,
                                    const ProfileInput &In) {
  const ResourceUsage &U = *In.Usage;
  unsigned Spilled = U.SpillStoreBytes + U.SpillLoadBytes;
  Finding F;
  F.Stage = 2;
  F.Evidence = {{"spill_store_bytes", double(U.SpillStoreBytes)},
                {"spill_load_bytes", double(U.SpillLoadBytes)},
                {"stack_frame_bytes", double(U.StackFrameBytes)},
                {"registers_per_thread", double(U.Registers)}};
  if (Spilled == 0) {
    // A stack frame without spills is a local array the compiler could not
    // keep in registers (dynamic indexing). Its weight is its traffic, as
    // the SASS counts it: median3x3's window[9], sorted in place, made L1
    // look like the bottleneck (95% hits), and at 0.3 unroll stood tenth of
    // the original's moves while it paid 5.5x.
    F.Id = "local-array";
    F.Severity = 0.3;
    if (In.Sass) {
      unsigned Ops = In.Sass->LocalLoads.total() + In.Sass->LocalStores.total();
      F.Severity = 0.3 + 0.7 * std::min(1.0, Ops / 16.0);
      F.Evidence.push_back({"local_ops", double(Ops)});
    }
    F.Guidance = llvm::formatv(
        "Each thread keeps a {0}-byte array in local memory: index it with "
        "constants (full unrolling) so it can live in registers.",
        U.StackFrameBytes);
    F.Prior = priorFor(PriorCause::LocalArray);
    return {F};
  }
  F.Id = "local-memory-spills";
  F.Severity = 0.3 + 0.7 * std::min(1.0, Spilled / 128.0);
  F.Guidance = llvm::formatv(
      "ptxas spills {0} bytes per thread to local memory at {1} registers: "
      "allow more registers (fewer threads per block in __launch_bounds__) or "
      "keep less live state (smaller unroll factors and tiles).",
      Spilled, U.Registers);
  F.Prior = priorFor(PriorCause::LocalMemory);
  return {F};
}

Analyzer optiml::spillAnalyzer() {
  return Analyzer("spills", appliesTo, analyze);
}
