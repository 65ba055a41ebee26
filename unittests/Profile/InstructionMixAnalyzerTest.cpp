//===- InstructionMixAnalyzerTest.cpp - findings from the SASS mix --------===//
//
// Recorded H200 counters (RecordedRuns.h) with the SASS of the same kernels
// (unittests/Eval/Inputs/*.sass, cuobjdump of sm_90 builds).
//
//===----------------------------------------------------------------------===//

#include "ProfileTestUtil.h"
#include "RecordedRuns.h"
#include "optiml/Profile/Analyzers.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <algorithm>

using namespace optiml;
using namespace optiml::test;

namespace {

SassMix sass(const char *File, const char *Kernel) {
  auto Buf = llvm::MemoryBuffer::getFile(std::string(OPTIML_UNITTEST_INPUTS) +
                                         "/" + File);
  if (!Buf) {
    ADD_FAILURE() << "missing input " << File;
    return SassMix();
  }
  auto M = parseSassMix((*Buf)->getBuffer(), Kernel);
  if (!M)
    ADD_FAILURE() << "no " << Kernel << " in " << File;
  return M.value_or(SassMix());
}

bool ran(const ProfileReport &R) {
  return llvm::is_contained(R.AnalyzersRun, "instruction-mix");
}

TEST(InstructionMixAnalyzerTest, WithoutAMixItDoesNotRun) {
  ProfileReport R = profile(input(Saxpy, 65536, 256, 16));
  EXPECT_FALSE(ran(R));
  ProfileInput In = input(Saxpy, 65536, 256, 16);
  In.Sass = sass("saxpy-so.sass", "saxpy");
  EXPECT_TRUE(ran(profile(In)));
}

TEST(InstructionMixAnalyzerTest, ScalarLoadsInADramBoundKernel) {
  ProfileInput In = input(Saxpy, 65536, 256, 16);
  In.Sass = sass("saxpy-so.sass", "saxpy");
  ProfileReport R = profile(In);
  ASSERT_EQ(R.Stage1.Kind, BottleneckKind::MemoryBound);
  const Finding *F = find(R, "sass-scalar-global-loads");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->evidence("global_loads"), 2);
  EXPECT_EQ(F->evidence("global_loads_128", -1), 0);
  EXPECT_DOUBLE_EQ(F->Severity, 0.7); // No load is wide.
  EXPECT_NE(F->Guidance.find("2 of 2 global loads"), std::string::npos)
      << F->Guidance;
  EXPECT_GT(F->Prior.at("vectorize"), F->Prior.at("coarsen"));
  // One FFMA is no math loop: no FFMA-share finding even without a class.
  EXPECT_EQ(find(R, "sass-low-ffma-share"), nullptr);
}

TEST(InstructionMixAnalyzerTest, WideLoadsAreNotReported) {
  ProfileInput In = input(Saxpy, 65536, 256, 16);
  In.Sass = sass("vec.sass", "vcopy"); // LDG.E.128 / STG.E.128
  ProfileReport R = profile(In);
  EXPECT_TRUE(ran(R));
  EXPECT_EQ(find(R, "sass-scalar-global-loads"), nullptr);
  // Half wide (tile: one LDG.E, one LDG.E.128) is enough.
  In.Sass = sass("vec.sass", "tile");
  EXPECT_EQ(find(profile(In), "sass-scalar-global-loads"), nullptr);
}

TEST(InstructionMixAnalyzerTest, ComputeBoundSgemmSpendsSlotsOnIntegers) {
  RecordedRun Run = Sgemm;
  Run.SmPct = 85, Run.MemPct = 40;
  ProfileInput In = input(Run, 65536, 256, 32);
  In.Sass = sass("sgemm.sass", "sgemm");
  ProfileReport R = profile(In);
  ASSERT_EQ(R.Stage1.Kind, BottleneckKind::ComputeBound);
  const Finding *F = find(R, "sass-low-ffma-share");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->evidence("ffma"), 29);
  EXPECT_EQ(F->evidence("integer"), 72);
  EXPECT_NEAR(F->evidence("ffma_share"), 29.0 / 201, 1e-9);
  EXPECT_NEAR(F->evidence("integer_per_ffma"), 72.0 / 29, 1e-9);
  EXPECT_NEAR(F->Severity, 0.3 + 0.4 * (1 - (29.0 / 201) / 0.25), 1e-9);
  EXPECT_TRUE(F->Prior.count("coarsen") && F->Prior.count("stage-shared") &&
              F->Prior.count("hoist"));
  // Scalar loads matter to a memory-bound kernel, not to this one.
  EXPECT_EQ(find(R, "sass-scalar-global-loads"), nullptr);
}

TEST(InstructionMixAnalyzerTest, MemoryBoundSgemmGetsOnlyTheLoadFinding) {
  ProfileInput In = input(Sgemm, 65536, 256, 32);
  In.Sass = sass("sgemm.sass", "sgemm");
  ProfileReport R = profile(In);
  ASSERT_EQ(R.Stage1.Kind, BottleneckKind::MemoryBound);
  EXPECT_NE(find(R, "sass-scalar-global-loads"), nullptr);
  EXPECT_EQ(find(R, "sass-low-ffma-share"), nullptr);
  // The cache analyzers still lead: the mix adds, it does not take over.
  EXPECT_NE(find(R, "l1-reuse"), nullptr);
}

TEST(InstructionMixAnalyzerTest, WithoutCountersTheMixAloneWeighsLess) {
  ProfileInput In;
  In.Sass = sass("sgemm.sass", "sgemm");
  ProfileReport R = profile(In);
  ASSERT_EQ(R.Stage1.Kind, BottleneckKind::Unknown);
  const Finding *Loads = find(R, "sass-scalar-global-loads");
  const Finding *Ffma = find(R, "sass-low-ffma-share");
  ASSERT_NE(Loads, nullptr);
  ASSERT_NE(Ffma, nullptr);
  EXPECT_DOUBLE_EQ(Loads->Severity, 0.6 * 0.7);
  EXPECT_GT(R.Prior["vectorize"], 0);
  EXPECT_GT(R.Prior["coarsen"], 0);
}

TEST(InstructionMixAnalyzerTest, LocalOpsCiteThePtxasReportWithoutAPrior) {
  ProfileInput In = input(Saxpy, 65536, 256, 24);
  In.Sass = sass("spill.sass", "spill");
  In.Usage->StackFrameBytes = 176;
  In.Usage->SpillStoreBytes = 36, In.Usage->SpillLoadBytes = 44;
  ProfileReport R = profile(In);
  // SpillAnalyzer gives the advice and the prior ...
  ASSERT_NE(find(R, "local-memory-spills"), nullptr);
  // ... the mix only says where the traffic is.
  const Finding *F = find(R, "sass-local-ops");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->evidence("local_loads"), 6);
  EXPECT_EQ(F->evidence("local_stores"), 14);
  EXPECT_TRUE(F->Prior.empty());
  EXPECT_EQ(find(R, "sass-local-memory"), nullptr);
}

TEST(InstructionMixAnalyzerTest, ALocalArrayWeighsWhatItsTrafficWeighs) {
  ProfileInput In = input(Saxpy, 65536, 256, 24);
  In.Usage->StackFrameBytes = 40; // An array, no spills.
  // The report is kept: find() points into it.
  ProfileReport Guess = profile(In);
  const Finding *F = find(Guess, "local-array");
  ASSERT_NE(F, nullptr);
  EXPECT_DOUBLE_EQ(F->Severity, 0.3);    // Without the SASS: a guess.
  In.Sass = sass("spill.sass", "spill"); // 6 local loads, 14 stores.
  ProfileReport R = profile(In);
  F = find(R, "local-array");
  ASSERT_NE(F, nullptr);
  EXPECT_DOUBLE_EQ(F->Severity, 1.0);
  EXPECT_EQ(F->evidence("local_ops"), 20);
  EXPECT_GT(F->Prior.at("unroll"), 0);
}

TEST(InstructionMixAnalyzerTest, LocalOpsWithoutAReportCarryThePrior) {
  ProfileInput In = input(Saxpy, 65536, 256, 24);
  In.Sass = sass("spill.sass", "spill");
  In.Usage.reset(); // No ptxas report to go by.
  ProfileReport R = profile(In);
  const Finding *F = find(R, "sass-local-memory");
  ASSERT_NE(F, nullptr);
  EXPECT_DOUBLE_EQ(F->Severity, 1.0); // 20 local ops: well past 16.
  EXPECT_GT(F->Prior.at("launch-bounds"), 0);
  EXPECT_EQ(find(R, "sass-local-ops"), nullptr);
}

TEST(InstructionMixAnalyzerTest, NarrowSharedLoadsPerFfmaAskForBlocking) {
  RecordedRun Run = Sgemm;
  Run.SmPct = 85, Run.MemPct = 40;
  ProfileInput In = input(Run, 65536, 256, 32);
  In.Sass = sass("sgemm-tiled.sass", "sgemm_tiled");
  ProfileReport R = profile(In);
  const Finding *F = find(R, "sass-narrow-shared-loads");
  ASSERT_NE(F, nullptr);
  EXPECT_NEAR(F->evidence("shared_loads_per_ffma"), 20.0 / 12, 1e-9);
  EXPECT_EQ(F->evidence("shared_loads_128"), 4);
  EXPECT_NE(F->Guidance.find("16 of 20 narrower than 128 bits"),
            std::string::npos)
      << F->Guidance;
  EXPECT_EQ(topOf(F->Prior), "coarsen");
}

TEST(InstructionMixAnalyzerTest, RegisterBlockedSharedLoadsAreFine) {
  // A thread computing a 4x4 tile: two LDS.128 per 16 FFMAs.
  SassMix M = sass("sgemm-tiled.sass", "sgemm_tiled");
  M.SharedLoads = {0, 0, 8};
  M.Ffma = 64;
  ProfileInput In;
  In.Sass = M;
  EXPECT_EQ(find(profile(In), "sass-narrow-shared-loads"), nullptr);
  // As many loads, but scalar and one per FFMA: reported.
  M.SharedLoads = {64, 0, 0};
  In.Sass = M;
  EXPECT_NE(find(profile(In), "sass-narrow-shared-loads"), nullptr);
}

} // namespace
