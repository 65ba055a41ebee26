//===- AccessAnalyzersTest.cpp - coalescing, bank conflicts, divergence ---===//
//
// The access counters' ratios and the three analyzers that read them, on
// counters recorded on an H200 (RecordedRuns.h).
//
//===----------------------------------------------------------------------===//

#include "ProfileTestUtil.h"
#include "RecordedRuns.h"
#include "optiml/Profile/Analyzers.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace optiml;
using namespace optiml::test;

namespace {

bool ran(const ProfileReport &R, llvm::StringRef Name) {
  return std::find(R.AnalyzersRun.begin(), R.AnalyzersRun.end(), Name) !=
         R.AnalyzersRun.end();
}

KernelCounters counters(const RecordedRun &R, const AccessRun &A) {
  return llvm::cantFail(KernelCounters::fromRunnerResult(h200Result(R, &A)));
}

// --- KernelCounters ---------------------------------------------------------

TEST(AccessCountersTest, RatiosOfTheRecordedCounters) {
  KernelCounters C =
      counters(TransposeStagedUnpadded, TransposeStagedUnpaddedAccess);
  const AccessRun &A = TransposeStagedUnpaddedAccess;
  EXPECT_DOUBLE_EQ(*C.globalSectorsPerRequest(MemOp::Load), 4.0);
  EXPECT_DOUBLE_EQ(*C.globalSectorsPerRequest(MemOp::Store), 4.0);
  // Column reads of float t[32][32]: 32 wavefronts per instruction.
  EXPECT_NEAR(*C.sharedExcessWavefrontsPerInst(MemOp::Load), 31.15, 0.01);
  EXPECT_NEAR(*C.sharedExcessWavefrontsPerInst(MemOp::Store), 0.108, 0.001);
  EXPECT_DOUBLE_EQ(
      *C.sharedExcessWavefrontsPerInst(),
      (A.ShLdWavefronts + A.ShStWavefronts) / (A.ShLdInsts + A.ShStInsts) - 1);
  EXPECT_NEAR(*C.sharedBankConflictsPerInst(MemOp::Load), 31.15, 0.01);
  EXPECT_DOUBLE_EQ(*C.sharedBankConflictsPerInst(),
                   (A.ShLdConflicts + A.ShStConflicts) /
                       (A.ShLdInsts + A.ShStInsts));
  EXPECT_DOUBLE_EQ(*C.threadsPerWarpInst(), 32.0);
  EXPECT_FALSE(C.predicatedOnThreadsPerWarpInst()); // Not collected.

  KernelCounters T = counters(Transpose, TransposeAccess);
  EXPECT_NEAR(*T.globalSectorsPerRequest(MemOp::Store), 32.1, 0.01);
  EXPECT_NEAR(*T.predicatedOnThreadsPerWarpInst(), 30.61, 0.01);
  // No shared instructions: no ratio, rather than 0 or a division by zero.
  EXPECT_FALSE(T.sharedExcessWavefrontsPerInst());
  EXPECT_FALSE(T.sharedBankConflictsPerInst(MemOp::Load));
}

TEST(AccessCountersTest, AbsentWithoutBothCounters) {
  KernelCounters C(
      {{metric::GlobalLoadSectors, 800}, {metric::GlobalStoreRequests, 0}});
  EXPECT_FALSE(C.globalSectorsPerRequest(MemOp::Load));
  EXPECT_FALSE(C.globalSectorsPerRequest(MemOp::Store));
  EXPECT_FALSE(C.sharedExcessWavefrontsPerInst());
  EXPECT_FALSE(C.threadsPerWarpInst());
  KernelCounters D({{metric::SharedLoadWavefronts, 64},
                    {metric::SharedLoadInsts, 32},
                    {metric::ThreadInsts, 640},
                    {metric::WarpInsts, 40}});
  EXPECT_DOUBLE_EQ(*D.sharedExcessWavefrontsPerInst(MemOp::Load), 1.0);
  EXPECT_FALSE(D.sharedExcessWavefrontsPerInst(MemOp::Store));
  EXPECT_FALSE(D.sharedExcessWavefrontsPerInst()); // Stores unknown.
  EXPECT_DOUBLE_EQ(*D.threadsPerWarpInst(), 16.0);
}

TEST(AccessCountersTest, PredicatedOffInstructionsDoNotMakeNegativeExcess) {
  // The tree's guarded loads issue in every warp; warps whose lanes are all
  // off issue no wavefront, so wavefronts < instructions.
  KernelCounters C = counters(BlockSumTree, BlockSumTreeAccess);
  EXPECT_LT(BlockSumTreeAccess.ShLdWavefronts, BlockSumTreeAccess.ShLdInsts);
  EXPECT_DOUBLE_EQ(*C.sharedExcessWavefrontsPerInst(MemOp::Load), 0.0);
}

// --- CoalescingAnalyzer -----------------------------------------------------

TEST(CoalescingAnalyzerTest, NaiveTransposeStoresAreUncoalesced) {
  ProfileReport R =
      profile(input(Transpose, 65536, 1024, 10, &TransposeAccess));
  EXPECT_EQ(R.Stage1.Kind, BottleneckKind::MemoryBound);
  EXPECT_TRUE(ran(R, "coalescing"));
  const Finding *F = find(R, "uncoalesced-global");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->Stage, 2u);
  EXPECT_NEAR(F->evidence("global_store_sectors_per_request"), 32.1, 0.01);
  EXPECT_DOUBLE_EQ(F->evidence("global_load_sectors_per_request"), 4.0);
  // (67.3M - 4 x 2.1M) excess of 75.7M sectors.
  EXPECT_NEAR(F->evidence("excess_sector_fraction"), 0.778, 0.001);
  EXPECT_NEAR(F->Severity, 0.778, 0.001);
  EXPECT_EQ(F->Guidance.rfind("Global stores move 32.1 sectors", 0), 0u)
      << F->Guidance;
  EXPECT_EQ(topOf(F->Prior), "stage-shared");
}

TEST(CoalescingAnalyzerTest, CitesTheStridedAccessOfTheWorseDirection) {
  ProfileInput In = input(Transpose, 65536, 1024, 10, &TransposeAccess);
  In.Hints.push_back(
      {"strided-access", "transpose/load:in#0", {{"stride_elements", 1}}, {}});
  In.Hints.push_back({"strided-access",
                      "transpose/store:out#0",
                      {{"stride_elements", 8192}},
                      {}});
  ProfileReport R = profile(In);
  const Finding *F = find(R, "uncoalesced-global");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->Guidance.rfind("At transpose/store:out#0 (stride_elements "
                              "8192), global stores move 32.1",
                              0),
            0u)
      << F->Guidance;
  EXPECT_EQ(F->evidence("hint_stride_elements"), 8192);
}

TEST(CoalescingAnalyzerTest, QuietOnCoalescedAccessesOfAnyWidth) {
  // Staged transpose: 4 sectors per request both ways (latency-bound).
  ProfileReport R =
      profile(input(TransposeStaged, 65536, 1024, 12, &TransposeStagedAccess));
  EXPECT_EQ(R.Stage1.Kind, BottleneckKind::LatencyBound);
  EXPECT_TRUE(ran(R, "coalescing"));
  EXPECT_EQ(find(R, "uncoalesced-global"), nullptr);
  // float4 copy: 16 sectors per request, every byte used.
  ProfileReport W = profile(input(Copy4, 65536, 256, 14, &Copy4Access));
  EXPECT_EQ(W.Stage1.Kind, BottleneckKind::MemoryBound);
  EXPECT_TRUE(ran(W, "coalescing"));
  EXPECT_EQ(find(W, "uncoalesced-global"), nullptr);
}

TEST(CoalescingAnalyzerTest, AHintLowersTheThresholdForShortStrides) {
  // Synthetic: the staged transpose's stores at 12 sectors per request, as
  // a stride-3 float access would move them.
  AccessRun A = TransposeStagedAccess;
  A.StSectors = 12 * A.StRequests;
  ProfileInput In = input(TransposeStaged, 65536, 1024, 12, &A);
  EXPECT_EQ(find(profile(In), "uncoalesced-global"), nullptr);
  In.Hints.push_back({"strided-access", "k/store:out#0", {}, {}});
  ProfileReport R = profile(In);
  const Finding *F = find(R, "uncoalesced-global");
  ASSERT_NE(F, nullptr);
  EXPECT_DOUBLE_EQ(F->evidence("global_store_sectors_per_request"), 12.0);
  EXPECT_NE(F->Guidance.find("vector accesses"), std::string::npos);
  EXPECT_GT(F->Prior.at("vectorize"), F->Prior.at("block-size"));
}

TEST(CoalescingAnalyzerTest, NeedsTheCountersAndAMemoryOrLatencyBoundKernel) {
  EXPECT_FALSE(ran(profile(input(Transpose, 65536, 1024, 10)), "coalescing"));
  // Compute-bound: sectors are not what limits it.
  ProfileReport R = profile(input(Diverge, 65536, 256, 8, &DivergeAccess));
  EXPECT_EQ(R.Stage1.Kind, BottleneckKind::ComputeBound);
  EXPECT_FALSE(ran(R, "coalescing"));
}

// --- BankConflictAnalyzer ---------------------------------------------------

TEST(BankConflictAnalyzerTest, UnpaddedTileConflicts) {
  ProfileReport R = profile(input(TransposeStagedUnpadded, 65536, 1024, 12,
                                  &TransposeStagedUnpaddedAccess));
  const Finding *F = find(R, "shared-bank-conflicts");
  ASSERT_NE(F, nullptr);
  const AccessRun &A = TransposeStagedUnpaddedAccess;
  double Degree =
      (A.ShLdConflicts + A.ShStConflicts) / (A.ShLdInsts + A.ShStInsts);
  EXPECT_NEAR(Degree, 15.63, 0.01);
  EXPECT_DOUBLE_EQ(F->evidence("conflicts_per_shared_inst"), Degree);
  EXPECT_NEAR(F->evidence("shared_load_conflicts_per_inst"), 31.15, 0.01);
  EXPECT_NEAR(F->evidence("shared_store_conflicts_per_inst"), 0.108, 0.001);
  EXPECT_NEAR(F->Severity, 0.3 + 0.7 * Degree / 16, 1e-9);
  EXPECT_EQ(F->Guidance.rfind("Shared-memory loads take 32.1 wavefronts", 0),
            0u)
      << F->Guidance;
  EXPECT_NE(F->Guidance.find("pad the tile"), std::string::npos);
  // The kernel's own tile is unpadded: padding it is the first thing to try.
  EXPECT_EQ(topOf(F->Prior), "pad-shared");
}

TEST(BankConflictAnalyzerTest, ExcessWavefrontsStandInForTheConflictCount) {
  AccessRun A = TransposeStagedUnpaddedAccess;
  A.ShLdConflicts = A.ShStConflicts = -1;
  ProfileReport R =
      profile(input(TransposeStagedUnpadded, 65536, 1024, 12, &A));
  const Finding *F = find(R, "shared-bank-conflicts");
  ASSERT_NE(F, nullptr);
  EXPECT_NEAR(F->evidence("conflicts_per_shared_inst"), 15.63, 0.01);
}

TEST(BankConflictAnalyzerTest, QuietOnPaddedTilesAndWithoutSharedMemory) {
  ProfileReport P =
      profile(input(TransposeStaged, 65536, 1024, 12, &TransposeStagedAccess));
  EXPECT_TRUE(ran(P, "bank-conflicts"));
  EXPECT_EQ(find(P, "shared-bank-conflicts"), nullptr);
  ProfileReport Tree =
      profile(input(BlockSumTree, 65536, 256, 10, &BlockSumTreeAccess));
  EXPECT_TRUE(ran(Tree, "bank-conflicts"));
  EXPECT_EQ(find(Tree, "shared-bank-conflicts"), nullptr);
  // No shared instructions, no counters: nothing to say.
  EXPECT_FALSE(ran(profile(input(Transpose, 65536, 1024, 10, &TransposeAccess)),
                   "bank-conflicts"));
  EXPECT_FALSE(ran(profile(input(Sgemm, 65536, 256, 32)), "bank-conflicts"));
}

// --- DivergenceAnalyzer -----------------------------------------------------

TEST(DivergenceAnalyzerTest, TreeReductionIdlesPredicatedLanes) {
  ProfileReport R =
      profile(input(BlockSumTree, 65536, 256, 10, &BlockSumTreeAccess));
  const Finding *F = find(R, "predicated-lanes");
  ASSERT_NE(F, nullptr);
  EXPECT_NEAR(F->evidence("active_threads_per_warp_inst"), 31.70, 0.01);
  EXPECT_NEAR(F->evidence("predicated_on_threads_per_warp_inst"), 20.42, 0.01);
  EXPECT_NEAR(F->evidence("lane_efficiency"), 20.42 / 32, 0.001);
  EXPECT_EQ(F->evidence("uniform_branch_pct"), 100);
  EXPECT_NEAR(F->Severity, 1 - 20.42 / 32, 0.001);
  EXPECT_EQ(topOf(F->Prior), "warp-reduce");
}

TEST(DivergenceAnalyzerTest, QuietOnceTheTreeEndsInShuffles) {
  ProfileReport R =
      profile(input(BlockSumWarp, 65536, 256, 16, &BlockSumWarpAccess));
  EXPECT_TRUE(ran(R, "divergence"));
  EXPECT_EQ(find(R, "predicated-lanes"), nullptr);
  ProfileReport T =
      profile(input(Transpose, 65536, 1024, 10, &TransposeAccess));
  EXPECT_TRUE(ran(T, "divergence"));
  EXPECT_EQ(find(T, "divergent-branches"), nullptr);
}

TEST(DivergenceAnalyzerTest, BranchingLanes) {
  ProfileReport R = profile(input(Diverge, 65536, 256, 8, &DivergeAccess));
  const Finding *F = find(R, "divergent-branches");
  ASSERT_NE(F, nullptr);
  EXPECT_NEAR(F->evidence("active_threads_per_warp_inst"), 18.27, 0.01);
  EXPECT_EQ(F->evidence("uniform_branch_pct"), 50);
  EXPECT_NE(F->Guidance.find("Only 18.3 of 32 lanes are active"),
            std::string::npos)
      << F->Guidance;
}

TEST(DivergenceAnalyzerTest, PartialWarpsFromTheBlockSize) {
  ProfileReport R = profile(input(Scale48, 349526, 48, 10, &Scale48Access));
  const Finding *F = find(R, "partial-warps");
  ASSERT_NE(F, nullptr);
  EXPECT_NEAR(F->evidence("active_threads_per_warp_inst"), 24.0, 1e-3);
  EXPECT_EQ(F->evidence("threads_per_block"), 48);
  EXPECT_EQ(F->evidence("uniform_branch_pct", -1), -1); // 0: no branches.
  EXPECT_NE(F->Guidance.find("Blocks of 48 threads"), std::string::npos);
  EXPECT_EQ(topOf(F->Prior), "block-size");
}

TEST(DivergenceAnalyzerTest, NeedsTheInstructionCounters) {
  EXPECT_FALSE(ran(profile(input(Saxpy, 65536, 256, 16)), "divergence"));
  // Without the predicated-on count the tree's idle lanes are invisible:
  // active lanes alone stay quiet rather than guess.
  AccessRun A = BlockSumTreeAccess;
  A.ThreadInstsPredOn = -1;
  ProfileReport R = profile(input(BlockSumTree, 65536, 256, 10, &A));
  EXPECT_TRUE(ran(R, "divergence"));
  EXPECT_EQ(find(R, "predicated-lanes"), nullptr);
}

} // namespace
