//===- LocalArrayScreenTest.cpp - ptxas ranks the local array's moves ----===//
//
// A kernel that keeps an array in local memory has the moves that could
// take it into registers built first; those whose build has no stack frame
// lead the state's moves. One test asks the real nvcc (no GPU needed).
//
//===----------------------------------------------------------------------===//

#include "driver/Search/SearchExpander.h"
#include "optiml/Eval/Builder.h"
#include "optiml/Frontend/CudaToolchain.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Transform/TransformRegistry.h"
#include "transforms/RegisterTransforms.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

using namespace optiml;

namespace {

// The corpus's median filter: a 3x3 window gathered into window[9] and
// sorted in place, whose data-dependent indices keep it in local memory
// (40 bytes of stack).
std::string medianPath() {
  return std::string(OPTIML_UNITTEST_INPUTS) +
         "/../../../benchmarks/corpus/image_filters.cu";
}

class LocalArrayScreenTest : public ::testing::Test {
protected:
  LocalArrayScreenTest()
      : DB(".", {"-std=c++17"}),
        Parser(DB, CudaToolchain::detect("optiml-unittests", "", "")),
        Registry(makeTransformRegistry()) {}

  std::unique_ptr<SearchExpander> expander() {
    auto Source = KernelSource::fromFile(medianPath());
    EXPECT_TRUE(bool(Source)) << llvm::toString(Source.takeError());
    if (!Source)
      return nullptr;
    auto P = Parser.parse(*Source);
    EXPECT_TRUE(bool(P)) << llvm::toString(P.takeError());
    if (!P)
      return nullptr;
    return std::make_unique<SearchExpander>(Registry, Parser, std::move(*P),
                                            "median3x3", "", "sm_90");
  }

  /// The original as measured: \p Stack bytes of stack frame, no spills.
  static Measurement withStack(unsigned Stack, unsigned Spilled = 0) {
    Measurement M;
    M.Usage.emplace();
    M.Usage->StackFrameBytes = Stack;
    M.Usage->SpillStoreBytes = Spilled;
    return M;
  }

  clang::tooling::FixedCompilationDatabase DB;
  SourceParser Parser;
  TransformRegistry Registry;
};

/// A probe that reports no stack frame for the sources whose text holds
/// \p Marker, 40 bytes for the others, and counts what it was asked.
struct FakeProbe {
  std::string Marker;
  std::shared_ptr<unsigned> Asked = std::make_shared<unsigned>(0);
  std::vector<std::optional<ResourceUsage>>
  operator()(llvm::ArrayRef<const KernelSource *> Sources) const {
    std::vector<std::optional<ResourceUsage>> Out;
    for (const KernelSource *S : Sources) {
      ++*Asked;
      ResourceUsage U;
      U.StackFrameBytes = S->text().contains(Marker) ? 0 : 40;
      Out.push_back(U);
    }
    return Out;
  }
};

const ScoredAction *top(const std::vector<ScoredAction> &Moves) {
  const ScoredAction *Best = nullptr;
  for (const ScoredAction &M : Moves)
    if (!Best || M.Prior > Best->Prior)
      Best = &M;
  return Best;
}

TEST_F(LocalArrayScreenTest, AMoveWhoseBuildHasNoStackFrameLeads) {
  auto E = expander();
  ASSERT_TRUE(E);
  FakeProbe Probe{"#pragma unroll 2\n    for (int dy"};
  E->setUsageProbe(Probe);
  Measurement Original = withStack(40);
  auto Moves = E->actions({Trace(), E->rootHash(), Original});
  ASSERT_TRUE(bool(Moves)) << llvm::toString(Moves.takeError());
  const ScoredAction *Best = top(*Moves);
  ASSERT_NE(Best, nullptr);
  EXPECT_EQ(Best->Action.str(), "unroll(site=median3x3/for#0,factor=2)");
  EXPECT_NE(Best->Motivation.find("no stack frame"), std::string::npos)
      << Best->Motivation;
  // Only the moves the local-array finding suggests were built.
  unsigned Suggested = 0;
  double Sum = 0;
  for (const ScoredAction &M : *Moves) {
    Suggested += M.Action.Transform == "unroll" || M.Action.Transform == "tile";
    Sum += M.Prior;
  }
  EXPECT_EQ(*Probe.Asked, Suggested);
  EXPECT_NEAR(Sum, 1.0, 1e-9);
}

TEST_F(LocalArrayScreenTest, NoBuildsWithoutALocalArray) {
  auto E = expander();
  ASSERT_TRUE(E);
  FakeProbe Probe{"#pragma unroll 2"};
  E->setUsageProbe(Probe);
  for (Measurement M : {Measurement(), withStack(0), withStack(40, 8)}) {
    auto Moves = E->actions({Trace(), E->rootHash(), M});
    ASSERT_TRUE(bool(Moves)) << llvm::toString(Moves.takeError());
    for (const ScoredAction &A : *Moves)
      EXPECT_EQ(A.Motivation.find("no stack frame"), std::string::npos)
          << A.Action.str();
  }
  EXPECT_EQ(*Probe.Asked, 0u) << "spills or no stack: nothing to screen";
}

TEST_F(LocalArrayScreenTest, NoMoveLeadsWhenEveryBuildKeepsTheArray) {
  auto E = expander();
  ASSERT_TRUE(E);
  FakeProbe Probe{"no source holds this"};
  E->setUsageProbe(Probe);
  auto Moves = E->actions({Trace(), E->rootHash(), withStack(40)});
  ASSERT_TRUE(bool(Moves)) << llvm::toString(Moves.takeError());
  EXPECT_GT(*Probe.Asked, 0u);
  for (const ScoredAction &A : *Moves)
    EXPECT_EQ(A.Motivation.find("no stack frame"), std::string::npos);
}

// What the fake stands for, asked of ptxas itself: of the unroll moves,
// the factor-2 unrolling of the gather's outer loop leaves no stack frame.
TEST_F(LocalArrayScreenTest, PtxasFindsTheUnrollingThatFreesTheArray) {
  llvm::SmallString<128> Cache;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-screen", Cache));
  BuildOptions O;
  O.CacheRoot = std::string(Cache);
  auto B = Builder::create(O);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  KernelInfo Kernel;
  Kernel.Name = Kernel.QualifiedName = "median3x3";
  auto E = expander();
  ASSERT_TRUE(E);
  E->limitTo({"unroll"});
  E->setUsageProbe([&](llvm::ArrayRef<const KernelSource *> Sources) {
    std::vector<BuildRequest> Requests;
    for (const KernelSource *S : Sources)
      Requests.push_back({S, &Kernel});
    std::vector<std::optional<ResourceUsage>> Out;
    for (auto &R : B->buildAll(Requests, 2)) {
      EXPECT_TRUE(bool(R));
      Out.push_back(R && R->Succeeded ? R->Usage : std::nullopt);
      if (!R)
        llvm::consumeError(R.takeError());
    }
    return Out;
  });
  auto Moves = E->actions({Trace(), E->rootHash(), withStack(40)});
  llvm::sys::fs::remove_directories(Cache);
  ASSERT_TRUE(bool(Moves)) << llvm::toString(Moves.takeError());
  const ScoredAction *Best = top(*Moves);
  ASSERT_NE(Best, nullptr);
  EXPECT_EQ(Best->Action.str(), "unroll(site=median3x3/for#0,factor=2)");
  EXPECT_NE(Best->Motivation.find("no stack frame"), std::string::npos);
}

} // namespace
