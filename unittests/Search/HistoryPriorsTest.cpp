//===- HistoryPriorsTest.cpp - what each transform did on this GPU --------===//

#include "optiml/Search/HistoryPriors.h"

#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

#include <cmath>

using namespace optiml;

namespace {

CandidateRecord step(std::string Hash, std::string Parent,
                     std::string Transform, double Speedup,
                     std::string Status = "ok") {
  CandidateRecord C;
  C.SourceHash = std::move(Hash);
  C.ParentHash = std::move(Parent);
  C.LastTransform = std::move(Transform);
  C.Speedup = Speedup;
  C.Status = std::move(Status);
  return C;
}

/// An original at 1x, a restrict step to 2x, an unroll step from there
/// back to 1x, and an unroll from the original that failed to verify.
std::vector<CandidateRecord> kernelHistory() {
  return {step("o", "", "", 1), step("r", "o", "restrict", 2),
          step("ru", "r", "unroll", 1),
          step("u", "o", "unroll", 0, "verify_failed")};
}

TEST(HistoryPriorsTest, EachStepIsMeasuredAgainstItsParent) {
  HistoryPriors H;
  H.addKernel(kernelHistory());
  ASSERT_NE(H.evidence("restrict"), nullptr);
  EXPECT_EQ(H.evidence("restrict")->Steps, 1u);
  EXPECT_NEAR(H.evidence("restrict")->SumLogGain, std::log(2.0), 1e-12);
  // 2x -> 1x is a halving; a failure counts as one too.
  ASSERT_NE(H.evidence("unroll"), nullptr);
  EXPECT_EQ(H.evidence("unroll")->Steps, 2u);
  EXPECT_NEAR(H.evidence("unroll")->SumLogGain, 2 * std::log(0.5), 1e-12);
  EXPECT_EQ(H.evidence("coarsen"), nullptr);
}

TEST(HistoryPriorsTest, ThinEvidenceMovesThePriorLittle) {
  HistoryPriors H;
  H.addKernel(kernelHistory());
  // One 2x step, shrunk by 1 / (1 + 4): 2^0.2.
  EXPECT_NEAR(H.factor("restrict"), std::pow(2.0, 0.2), 1e-9);
  EXPECT_LT(H.factor("unroll"), 1);
  EXPECT_DOUBLE_EQ(H.factor("coarsen"), 1);
  // Ten kernels of the same story: the factors approach the effects.
  HistoryPriors Many;
  for (int I = 0; I < 10; ++I)
    Many.addKernel(kernelHistory());
  EXPECT_NEAR(Many.factor("restrict"), std::pow(2.0, 10.0 / 14), 1e-9);
  EXPECT_NEAR(Many.factor("unroll"), std::pow(0.5, 20.0 / 24), 1e-9);
  // No evidence pushes a prior past the bounds.
  for (int I = 0; I < 100; ++I)
    Many.addKernel({step("o", "", "", 1), step("t", "o", "tile", 50)});
  EXPECT_DOUBLE_EQ(Many.factor("tile"), HistoryPriors::MaxFactor);
}

TEST(HistoryPriorsTest, ItScalesThePriorsAndSaysWhy) {
  HistoryPriors H;
  for (int I = 0; I < 4; ++I)
    H.addKernel(kernelHistory());
  std::vector<ScoredAction> Moves(3);
  Moves[0].Action.Transform = "restrict";
  Moves[1].Action.Transform = "unroll";
  Moves[1].Motivation = "compute-bound: unroll";
  Moves[2].Action.Transform = "coarsen";
  for (ScoredAction &M : Moves)
    M.Prior = 0.25;
  H.apply(Moves);
  EXPECT_GT(Moves[0].Prior, 0.25);
  EXPECT_LT(Moves[1].Prior, 0.25);
  EXPECT_DOUBLE_EQ(Moves[2].Prior, 0.25);
  EXPECT_EQ(Moves[0].Motivation,
            "history on this GPU: 2.00x a step over 4 steps");
  EXPECT_EQ(Moves[1].Motivation, "compute-bound: unroll; history on this "
                                 "GPU: 0.50x a step over 8 steps");
  EXPECT_TRUE(Moves[2].Motivation.empty());
}

TEST(HistoryPriorsTest, OnlyOtherKernelsOnTheSameGpuCount) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("history", "db", Path));
  llvm::sys::fs::remove(Path);
  // Destroyed after the database, which leaves its -wal and -shm files
  // behind when its file goes first.
  struct Remove {
    std::string Path;
    ~Remove() {
      for (const char *Suffix : {"", "-wal", "-shm"})
        llvm::sys::fs::remove(Path + Suffix);
    }
  } Cleanup{Path.str().str()};
  auto Db = Database::open(Path);
  ASSERT_TRUE(bool(Db)) << llvm::toString(Db.takeError());
  auto Here = Db->kernelId({0, "h1", "k1", "{}", "NVIDIA H100", "t"});
  auto Other = Db->kernelId({0, "h2", "k2", "{}", "NVIDIA H100", "t"});
  auto Elsewhere = Db->kernelId({0, "h3", "k3", "{}", "NVIDIA A100", "t"});
  ASSERT_TRUE(Here && Other && Elsewhere);
  for (int64_t K : {*Here, *Other, *Elsewhere})
    for (CandidateRecord C : kernelHistory()) {
      C.Kernel = K;
      C.Trace = C.LastTransform;
      auto Added = Db->add(C);
      ASSERT_TRUE(bool(Added)) << llvm::toString(Added.takeError());
    }
  auto H = HistoryPriors::learn(*Db, "NVIDIA H100", *Here);
  ASSERT_TRUE(bool(H)) << llvm::toString(H.takeError());
  ASSERT_NE(H->evidence("restrict"), nullptr);
  EXPECT_EQ(H->evidence("restrict")->Steps, 1u); // k2's only.
  auto None = HistoryPriors::learn(*Db, "NVIDIA L4", 0);
  ASSERT_TRUE(bool(None));
  EXPECT_TRUE(None->empty());
}

} // namespace
