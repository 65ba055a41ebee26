//===- SmallBudgetTest.cpp - ten candidates, four in flight -------------===//
//
// Landscapes recorded on an H200 (budget 10, four candidates in flight),
// where MCTS once did worse than greedy's rounds.
//
//===----------------------------------------------------------------------===//

#include "SearchTestUtil.h"
#include "optiml/Search/GreedyStrategy.h"
#include "optiml/Search/MctsStrategy.h"
#include "optiml/Search/SearchLoop.h"

using namespace optiml;
using namespace optiml::test;
using nlohmann::json;

namespace {

/// softmax: warp-per-row pays 12.4x at the root, fast-math below it 14.0x
/// and restrict below that 20.4x; fast-math alone pays 13% and warp-per-row
/// on the other loop 7.3x.
json softmax() {
  auto Wpr = [](const std::string &Loop, int Lanes, const std::string &Grid) {
    return "warp-per-row(site=s/for#" + Loop +
           ",lanes=" + std::to_string(Lanes) + ",grid=" + Grid + ")";
  };
  json Root = {step("fast-math(site=s,ops=all)", 0.095, "F"),
               step("block-size(site=s,x=256)", 0.067, "B"),
               step(Wpr("0", 32, "spread"), 0.061, "W"),
               step(Wpr("1", 32, "spread"), 0.061, "V"),
               move("restrict", "s", 0.045, "R"),
               move("read-only", "s", 0.045, "O"),
               step("fast-math(site=s,ops=exp-log)", 0.0315, "E"),
               step("block-size(site=s,x=64)", 0.022, "B64"),
               step("block-size(site=s,x=128)", 0.022, "B128"),
               step(Wpr("0", 16, "spread"), 0.02, "W16"),
               step(Wpr("0", 32, "keep"), 0.02, "WK")};
  json Below = {step("fast-math(site=s,ops=all)", 0.3, "WF"),
                step("fast-math(site=s,ops=exp-log)", 0.2, "WE"),
                move("restrict", "s", 0.15, "WR"),
                move("read-only", "s", 0.15, "WO"),
                step("block-size(site=s,x=256)", 0.1, "WB")};
  json States = {
      {"r", state(1000, Root)},
      {"F", state(882, {step("block-size(site=s,x=256)", 0.3, "FB"),
                        move("restrict", "s", 0.3, "FR"),
                        step(Wpr("0", 32, "spread"), 0.2, "WF")})},
      {"B", state(1575)},
      {"W", state(80.3, Below)},
      {"V", state(136.8, {step("fast-math(site=s,ops=all)", 0.3, "VF"),
                          move("restrict", "s", 0.3, "VR")})},
      {"R", state(1000)},
      {"O", state(1000)},
      {"E", state(932)},
      {"B64", state(1200)},
      {"B128", state(1100)},
      {"W16", state(150.6)},
      {"WK", state(560)},
      {"WF", state(71.2, {move("restrict", "s", 0.3, "WFR"),
                          move("read-only", "s", 0.3, "WFO"),
                          step("block-size(site=s,x=256)", 0.2, "WFB")})},
      {"WE", state(73.6)},
      {"WR", state(60)},
      {"WO", state(78)},
      {"WB", state(120)},
      {"WFR", state(49.0)},
      {"WFO", state(70)},
      {"WFB", state(110)},
      {"FB", state(1567)},
      {"FR", state(880)},
      {"VF", state(135.1)},
      {"VR", state(130)}};
  return {{"root", "r"}, {"noise", 0.005}, {"states", States}};
}

/// linear_nt: the tensor-core rewrite (tf32, tile 64) pays 30x at the root
/// beside register-blocking chains at 24x; its bf16 value pays 36x, tile
/// 128 49x.
json linearNt() {
  auto Tc = [](const std::string &Precision, int Tile) {
    return "tensor-cores(site=l/for#0,precision=" + Precision +
           ",tile=" + std::to_string(Tile) + ")";
  };
  json Chain = {move("launch-bounds", "l", 0.3, "CL"),
                move("hoist", "l", 0.3, "CH"),
                move("restrict", "l", 0.2, "CR")};
  json Root = {step(Tc("tf32", 64), 0.083, "T"),
               step("chain:block(site=l,y=4,x=4)", 0.083, "C44"),
               step("chain:block(site=l,y=8,x=4)", 0.083, "C84"),
               step("chain:block(site=l,y=8,x=8)", 0.083, "C88"),
               step("chain:rows(site=l)", 0.083, "CR4"),
               step("chain:stage(site=l)", 0.083, "CS"),
               step("coarsen(site=l,dim=y,factor=4)", 0.041, "CY"),
               move("restrict", "l", 0.036, "R"),
               step(Tc("tf32x3", 64), 0.028, "T3"),
               step(Tc("bf16", 64), 0.028, "TB"),
               step(Tc("tf32", 32), 0.028, "T32"),
               step(Tc("tf32", 128), 0.028, "T128"),
               step(Tc("half", 64), 0.028, "TH")};
  json States = {
      {"r", state(30000, Root)},
      {"T", state(998, {move("restrict", "l", 0.4, "TR"),
                        move("launch-bounds", "l", 0.3, "TL")})},
      {"TR", state(997)},
      {"TL", state(1000)},
      {"T3", state(1410)},
      {"TB", state(828, {move("restrict", "l", 0.4, "TBR")})},
      {"TBR", state(829)},
      {"T32", state(1520)},
      {"T128", state(612)},
      {"TH", state(900)},
      {"C44", state(1262, Chain)},
      {"C84", state(1261, Chain)},
      {"C88", state(1535, {move("launch-bounds", "l", 0.5, "C88L")})},
      {"C88L", state(1041)},
      {"CL", state(1272)},
      {"CH", state(1258)},
      {"CR", state(1260)},
      {"CR4", state(2000)},
      {"CS", state(2500)},
      {"CY", state(6000)},
      {"R", state(29000)}};
  return {{"root", "r"}, {"noise", 0.005}, {"states", States}};
}

/// scan_block_hs: unrolling the scan loop pays 12% at any factor; warp-scan
/// helps 3% more below it, and unrolling warp-scan's loop 10% below that.
/// Times in ns for an original of 1000; states no strategy reached on the
/// GPU are set to their parent's time.
json scanBlockHs() {
  auto Unroll = [](const std::string &Loop, int Factor) {
    return "unroll(site=s/for#" + Loop + ",factor=" + std::to_string(Factor) +
           ")";
  };
  auto LaunchBounds = [](int Threads) {
    return "launch-bounds(site=s,max-threads=" + std::to_string(Threads) +
           ",min-blocks=1)";
  };
  json Root = {step(Unroll("0", 4), 0.327, "U4"),
               step(Unroll("0", 2), 0.109, "U2"),
               step(Unroll("0", 8), 0.109, "U8"),
               step(Unroll("0", 16), 0.109, "U16"),
               move("warp-scan", "s/for#0", 0.101, "W"),
               move("restrict", "s", 0.101, "R"),
               move("read-only", "s/in", 0.101, "O"),
               step(LaunchBounds(512), 0.017, "L"),
               step(LaunchBounds(1024), 0.006, "L2")};
  // Below an unrolled loop; the same moves below each factor.
  auto BelowUnroll = [&](const std::string &U, double Time) {
    return state(Time, {move("warp-scan", "s/for#0", 0.3, U + "W"),
                        move("restrict", "s", 0.2, U + "R"),
                        move("read-only", "s/in", 0.2, U + "O"),
                        step(LaunchBounds(512), 0.1, U + "L"),
                        step(LaunchBounds(1024), 0.05, U + "L2")});
  };
  // Below warp-scan: its loop is for#0 now, the other loops follow.
  auto BelowWarpScan = [&](const std::string &W, double Time) {
    return state(Time, {step(Unroll("0", 4), 0.3, W + "U4"),
                        step(Unroll("1", 4), 0.2, W + "V"),
                        step(Unroll("2", 4), 0.2, W + "X"),
                        move("restrict", "s", 0.1, W + "R"),
                        step(Unroll("0", 8), 0.05, W + "U8"),
                        step(Unroll("0", 16), 0.05, W + "U16")});
  };
  json States = {{"r", state(1000, Root)},
                 {"U4", BelowUnroll("U4", 894.5)},
                 {"U2", BelowUnroll("U2", 896.9)},
                 {"U8", BelowUnroll("U8", 892.9)},
                 {"U16", BelowUnroll("U16", 892.9)},
                 {"W", BelowWarpScan("W", 867.3)},
                 {"R", state(1000)},
                 {"O", state(1000)},
                 {"L", state(1000)},
                 {"L2", state(1000)}};
  for (const char *U : {"U4", "U2", "U8", "U16"}) {
    std::string N = U;
    double Time = States[N]["time_ns"];
    States[N + "W"] = BelowWarpScan(N + "W", 867.3);
    for (const char *Other : {"R", "O", "L", "L2"})
      States[N + Other] = state(Time);
    States[N + "WU4"] = state(790.7);
    States[N + "WV"] = state(896.9);
    States[N + "WX"] = state(874.1);
    States[N + "WR"] = state(867.3);
    States[N + "WU8"] = state(783.1);
    States[N + "WU16"] = state(779.0);
  }
  States["WU4"] = state(790.7);
  States["WV"] = state(896.9);
  States["WX"] = state(874.1);
  States["WR"] = state(867.3);
  States["WU8"] = state(783.1);
  States["WU16"] = state(779.0);
  return {{"root", "r"}, {"noise", 0.005}, {"states", States}};
}

/// softmax_block_row: shuffle trees and fast-math help 3% and 7% at the
/// root, unrolling the first loop pays 26%; below fast-math, shuffle trees
/// help 3% more and unrolling pays 41%, and shuffle trees below that 48%.
/// The original takes 1000 ns; the state of fast-math, shuffle trees and
/// unrolling in that order was not reached on the GPU and is taken to be
/// the same kernel as unrolling first.
json softmaxBlockRow() {
  auto Unroll = [](const std::string &Loop) {
    return "unroll(site=b/for#" + Loop + ",factor=4,mode=explicit)";
  };
  json Root = {step("chain:shuffle-trees(site=b)", 0.271, "S"),
               step("fast-math(site=b,ops=all)", 0.136, "F"),
               move("restrict", "b", 0.055, "R"),
               move("read-only", "b/x", 0.055, "O"),
               step("fast-math(site=b,ops=exp-log)", 0.045, "E"),
               step(Unroll("0"), 0.019, "U"),
               step(Unroll("1"), 0.019, "U1"),
               step(Unroll("2"), 0.019, "U2"),
               move("warp-reduce", "b/for#1", 0.014, "WR")};
  json States = {
      {"r", state(1000, Root)},
      {"S", state(972.8, {step("fast-math(site=b,ops=all)", 0.3, "FS"),
                          step(Unroll("0"), 0.1, "US"),
                          move("restrict", "b", 0.1, "SR")})},
      {"F", state(938.1, {step("chain:shuffle-trees(site=b)", 0.3, "FS"),
                          move("restrict", "b", 0.1, "FR"),
                          move("read-only", "b/x", 0.1, "FO"),
                          step(Unroll("0"), 0.05, "FU"),
                          step(Unroll("2"), 0.05, "FU2")})},
      {"E", state(970.9)},
      {"R", state(1001)},
      {"O", state(1004)},
      {"U", state(791.1, {step("chain:shuffle-trees(site=b)", 0.3, "US"),
                          step("fast-math(site=b,ops=all)", 0.2, "FU"),
                          move("restrict", "b", 0.1, "UR")})},
      {"U1", state(999)},
      {"U2", state(920.8)},
      {"WR", state(1000)},
      {"FS", state(908.3, {step(Unroll("0"), 0.3, "FUS"),
                           move("restrict", "b", 0.1, "FSR")})},
      {"FR", state(936.3)},
      {"FO", state(942.5)},
      {"FU", state(707.2, {step("chain:shuffle-trees(site=b)", 0.3, "FUS"),
                           move("restrict", "b", 0.1, "FUR")})},
      {"FU2", state(938.1)},
      {"FUS", state(676.7)},
      {"FUR", state(707.2)},
      {"FSR", state(908.3)},
      {"US", state(748.8)},
      {"UR", state(791.1)},
      {"SR", state(972.8)}};
  return {{"root", "r"}, {"noise", 0.005}, {"states", States}};
}

/// hotspot_step: fast-math (1.44x) and coarsening y by 4 (1.42x) both pay
/// at the root; below fast-math, coarsening y by 4 makes 1.71x and x by 4
/// 1.82x. The original takes 1000 ns; states no strategy reached on the
/// GPU take their parent's time.
json hotspot() {
  auto Coarsen = [](const std::string &Dim, int Factor) {
    return "coarsen(site=h,dim=" + Dim + ",factor=" + std::to_string(Factor) +
           ")";
  };
  json Root = {move("swap-xy", "h", 0.117, "X"),
               step("fast-math(site=h,ops=all)", 0.114, "F"),
               step(Coarsen("y", 4), 0.114, "Y4"),
               move("launch-bounds", "h", 0.065, "L"),
               move("block-size", "h", 0.062, "B"),
               step(Coarsen("x", 4), 0.038, "X4"),
               step(Coarsen("y", 2), 0.038, "Y2"),
               step(Coarsen("y", 8), 0.038, "Y8")};
  json States = {
      {"r", state(1000, Root)},
      {"X", state(2247)},
      {"F", state(695.9, {step(Coarsen("y", 4), 0.3, "FY4"),
                          move("swap-xy", "h", 0.25, "FX"),
                          step(Coarsen("x", 4), 0.1, "FX4"),
                          step(Coarsen("y", 2), 0.1, "FY2"),
                          move("launch-bounds", "h", 0.08, "FL"),
                          step(Coarsen("y", 8), 0.08, "FY8")})},
      {"Y4", state(705.3, {step("fast-math(site=h,ops=all)", 0.3, "FY4"),
                           move("swap-xy", "h", 0.25, "Y4X"),
                           move("launch-bounds", "h", 0.15, "Y4L")})},
      {"L", state(1000)},
      {"B", state(1000)},
      {"X4", state(766.3, {step("fast-math(site=h,ops=all)", 0.3, "FX4")})},
      {"Y2", state(806.5)},
      {"Y8", state(910.7)},
      {"FY4", state(584.5, {move("swap-xy", "h", 0.3, "FY4X"),
                            move("launch-bounds", "h", 0.2, "FY4L")})},
      {"FX", state(2257)},
      {"FL", state(695.9)},
      {"FX4", state(549.7, {step(Coarsen("y", 4), 0.3, "FX4Y4"),
                            move("launch-bounds", "h", 0.2, "FX4L")})},
      {"FY2", state(621.9)},
      {"FY8", state(695.9)},
      {"Y4X", state(2283)},
      {"Y4L", state(705.3)},
      {"FY4X", state(2283)},
      {"FY4L", state(584.5)},
      {"FX4Y4", state(1077.6)},
      {"FX4L", state(549.7)}};
  return {{"root", "r"}, {"noise", 0.005}, {"states", States}};
}

/// The best speedup \p Strategy finds in ten candidates, four in flight,
/// results coming back in the order they were proposed (as on the GPU,
/// where builds take about as long as each other).
double bestOf(const json &Table, llvm::StringRef Strategy) {
  auto Env = env(Table);
  std::unique_ptr<SearchStrategy> S;
  if (Strategy == "mcts")
    S = std::make_unique<MctsStrategy>(*Env);
  else
    S = std::make_unique<GreedyStrategy>(*Env);
  SearchLoop Loop(*S, *Env, SearchBudget{10, 0, 4, /*Pipelined=*/true});
  Loop.run();
  const SearchGraph &G = S->graph();
  return Env->recordedSpeedup(G.node(G.best()).Hash);
}

TEST(SmallBudgetTest, SoftmaxReachesTheThirdStepAsGreedyDoes) {
  // Filling the window while the root's first round was measured spent
  // candidates below fast-math's 13% and on the weaker warp-per-row.
  double Greedy = bestOf(softmax(), "greedy");
  EXPECT_NEAR(Greedy, 20.4, 0.2);
  EXPECT_GE(bestOf(softmax(), "mcts"), Greedy * 0.99);
}

TEST(SmallBudgetTest, LinearNtTriesTheTensorCoreValuesAsGreedyDoes) {
  // A partial virtual loss gave the chains (24x) the candidates the
  // tensor-core state (30x) could not take while its child was measured.
  double Greedy = bestOf(linearNt(), "greedy");
  EXPECT_NEAR(Greedy, 36.2, 0.3);
  EXPECT_GE(bestOf(linearNt(), "mcts"), Greedy * 0.99);
}

TEST(SmallBudgetTest, ScanGoesBelowWarpScansThreePercentAsGreedyDoes) {
  // Asking a step for 10% before going below it kept MCTS beside
  // warp-scan (1.15x) while greedy found unrolling below it.
  double Greedy = bestOf(scanBlockHs(), "greedy");
  EXPECT_NEAR(Greedy, 1.265, 0.02);
  EXPECT_GE(bestOf(scanBlockHs(), "mcts"), Greedy * 0.99);
}

TEST(SmallBudgetTest, SoftmaxBlockRowGoesBelowFastMathAsGreedyDoes) {
  // Searching the root breadth-first past fast-math's 7% found unrolling
  // there (1.26x, then 1.34x) but not fast-math with it (1.48x).
  double Greedy = bestOf(softmaxBlockRow(), "greedy");
  EXPECT_GE(Greedy, 1.41);
  EXPECT_GE(bestOf(softmaxBlockRow(), "mcts"), Greedy * 0.99);
}

TEST(SmallBudgetTest, HotspotRetunesCoarseningBelowFastMath) {
  double Greedy = bestOf(hotspot(), "greedy");
  EXPECT_NEAR(Greedy, 1.819, 0.02);
  EXPECT_GE(bestOf(hotspot(), "mcts"), Greedy * 0.99);
}

} // namespace
