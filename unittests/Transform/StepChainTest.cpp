//===- StepChainTest.cpp - which chains a state offers, and their spelling ===//

#include "optiml/Transform/StepChain.h"
#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

Step step(llvm::StringRef Transform, llvm::StringRef Site) {
  Step S;
  S.Transform = Transform.str();
  S.Site = Site.str();
  return S;
}

std::vector<std::string> spellings(const std::vector<Step> &Steps) {
  std::vector<std::string> Out;
  for (const Step &S : Steps)
    Out.push_back(S.str());
  return Out;
}

const std::vector<Step> GemmLike = {
    step("coarsen", "mm"), step("stage-shared", "mm/for#0/A"),
    step("stage-shared", "mm/for#0/B"), step("unroll", "mm/for#0")};

TEST(StepChainTest, ATwoDimensionalKernelWithOperandsGetsEveryChain) {
  EXPECT_EQ(spellings(StepChain::offered(GemmLike, {32, 32, 1}, {})),
            (std::vector<std::string>{
                "chain:register-block(site=mm,y=4,x=4,tile=16)",
                "chain:register-block(site=mm,y=8,x=4,tile=16)",
                "chain:register-block(site=mm,y=8,x=8,tile=16)",
                "chain:rows-per-thread(site=mm,x=32,y=8,z=1,factor=4)",
                "chain:stage-operands(site=mm,tile=16)"}));
}

TEST(StepChainTest, ChainsStartBlockingAndNeverRepeatIt) {
  for (const char *Done : {"coarsen", "stage-shared"})
    EXPECT_TRUE(
        StepChain::offered(GemmLike, {32, 32, 1}, {step(Done, "mm")}).empty())
        << Done;
  // Other steps before do not matter.
  EXPECT_EQ(StepChain::offered(GemmLike, {32, 32, 1}, {step("restrict", "mm")})
                .size(),
            5u);
}

TEST(StepChainTest, TheBlockDecidesBetweenBlockingAndRows) {
  // One-dimensional blocks: only the staging chain.
  EXPECT_EQ(spellings(StepChain::offered(GemmLike, {256, 1, 1}, {})),
            std::vector<std::string>{"chain:stage-operands(site=mm,tile=16)"});
  // Six rows do not fold by four.
  for (const std::string &S :
       spellings(StepChain::offered(GemmLike, {32, 6, 1}, {})))
    EXPECT_EQ(S.find("rows-per-thread"), std::string::npos) << S;
  // One operand: nothing to stage together; without coarsening, no
  // blocking.
  std::vector<Step> OneOperand = {step("stage-shared", "k/for#0/A")};
  EXPECT_TRUE(StepChain::offered(OneOperand, {32, 32, 1}, {}).empty());
}

TEST(StepChainTest, DecodingChecksNameAndParameters) {
  auto Good =
      StepChain::decode(StepChain::offered(GemmLike, {32, 32, 1}, {}).front());
  ASSERT_TRUE(bool(Good)) << llvm::toString(Good.takeError());
  EXPECT_EQ(Good->name(), "register-block");
  // An accumulator in memory goes to a register first, where there is one.
  ASSERT_EQ(Good->links().size(), 4u);
  EXPECT_EQ(Good->links()[0].Transform, "scalar-replace");
  EXPECT_TRUE(Good->links()[0].Optional);
  EXPECT_EQ(Good->links()[1].Params.get("dim"), "y");
  EXPECT_FALSE(Good->links()[1].Optional);
  EXPECT_TRUE(Good->links()[3].EverySite);
  EXPECT_NE(Good->describe().find("4x4 outputs"), std::string::npos);

  Step Unknown = step("chain:everything", "mm");
  auto Bad = StepChain::decode(Unknown);
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(summarize(Bad.takeError()).Kind, ErrorKind::BadInput);
  Step Short = step("chain:register-block", "mm");
  Short.Params.set("y", "4");
  Short.Params.set("x", "0");
  auto Missing = StepChain::decode(Short);
  ASSERT_FALSE(bool(Missing));
  EXPECT_EQ(summarize(Missing.takeError()).Message,
            "chain step 'chain:register-block(site=mm,y=4,x=0)' needs a "
            "positive 'x', 'tile'");
}

TEST(StepChainTest, CountsArePrivatizedAfterCoarsening) {
  Step Coarsen = step("coarsen", "histo");
  Coarsen.Params.set("dim", "x");
  std::vector<Step> Histogram = {Coarsen,
                                 step("privatize-atomics", "histo/counts")};
  EXPECT_EQ(spellings(StepChain::offered(Histogram, {256, 1, 1}, {})),
            std::vector<std::string>{
                "chain:private-counts(site=histo,factor=8,dim=x)"});
  auto Chain =
      StepChain::decode(StepChain::offered(Histogram, {256, 1, 1}, {}).front());
  ASSERT_TRUE(bool(Chain)) << llvm::toString(Chain.takeError());
  ASSERT_EQ(Chain->links().size(), 2u);
  EXPECT_EQ(Chain->links()[0].Transform, "coarsen");
  EXPECT_EQ(Chain->links()[0].Params.get("dim"), "x");
  EXPECT_EQ(Chain->links()[0].Params.get("factor"), "8");
  EXPECT_EQ(Chain->links()[1].Transform, "privatize-atomics");
  EXPECT_TRUE(Chain->links()[1].EverySite);
  // Without coarsening (a grid-stride loop) the copy alone is the move.
  EXPECT_TRUE(StepChain::offered({step("privatize-atomics", "histo/counts")},
                                 {256, 1, 1}, {})
                  .empty());
  Step NoDim = step("chain:private-counts", "histo");
  NoDim.Params.set("factor", "8");
  auto Bad = StepChain::decode(NoDim);
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(summarize(Bad.takeError()).Kind, ErrorKind::BadInput);
}

TEST(StepChainTest, EveryTreeOfAKernelInOneMove) {
  // One tree alone is a plain step; an interleaved one or two trees make
  // the chain worth a move.
  EXPECT_TRUE(
      StepChain::offered({step("warp-reduce", "row/for#1")}, {256, 1, 1}, {})
          .empty());
  std::vector<Step> Two = {step("warp-reduce", "row/for#1"),
                           step("warp-reduce", "row/for#3")};
  EXPECT_EQ(spellings(StepChain::offered(Two, {256, 1, 1}, {})),
            std::vector<std::string>{"chain:shuffle-trees(site=row)"});
  EXPECT_EQ(spellings(StepChain::offered(
                {step("sequential-reduce", "ns::sum/for#0")}, {128, 1, 1}, {})),
            std::vector<std::string>{"chain:shuffle-trees(site=ns::sum)"});
  auto Chain = StepChain::decode(step("chain:shuffle-trees", "row"));
  ASSERT_TRUE(bool(Chain)) << llvm::toString(Chain.takeError());
  ASSERT_EQ(Chain->links().size(), 2u);
  EXPECT_EQ(Chain->links()[0].Transform, "sequential-reduce");
  EXPECT_TRUE(Chain->links()[0].Optional);
  EXPECT_EQ(Chain->links()[1].Transform, "warp-reduce");
  EXPECT_TRUE(Chain->links()[1].EverySite);
}

TEST(StepChainTest, AWhileLoopBecomesABatchedGridStrideLoop) {
  EXPECT_EQ(
      spellings(StepChain::offered({step("while-to-for", "dot/while#0")},
                                   {256, 1, 1}, {})),
      std::vector<std::string>{"chain:strided-batches(site=dot,factor=4)"});
  Step S = step("chain:strided-batches", "dot");
  S.Params.set("factor", "8");
  auto Chain = StepChain::decode(S);
  ASSERT_TRUE(bool(Chain)) << llvm::toString(Chain.takeError());
  ASSERT_EQ(Chain->links().size(), 2u);
  EXPECT_EQ(Chain->links()[0].Transform, "while-to-for");
  EXPECT_TRUE(Chain->links()[0].Optional);
  // Each rewrite renames the later while-loops: taken until none is left.
  EXPECT_TRUE(Chain->links()[0].Consumes);
  const ChainLink &Unroll = Chain->links()[1];
  EXPECT_EQ(Unroll.Transform, "unroll");
  EXPECT_EQ(Unroll.Params.get("factor"), "8");
  EXPECT_EQ(Unroll.Params.get("mode"), "explicit");
  // Only loops whose suggested step is explicit: grid-stride ones.
  EXPECT_EQ(Unroll.Requires.get("mode"), "explicit");
  EXPECT_FALSE(bool(StepChain::decode(step("chain:strided-batches", "dot"))));
}

} // namespace
