//===- OptimizeTest.cpp - --optimize without a GPU -----------------------===//
//
// The Driver's Expander on a real example, and the whole search with a fake
// Measurer standing in for the GPU.
//
//===----------------------------------------------------------------------===//

#include "../Profile/RecordedRuns.h"
#include "driver/Optimize/CompareStrategies.h"
#include "driver/Optimize/OptimizeSearch.h"
#include "driver/Search/SearchExpander.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Transform/StepChain.h"
#include "optiml/Transform/TransformRegistry.h"
#include "transforms/RegisterTransforms.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <nlohmann/json.hpp>

#include <cmath>

#include <optional>
#include <set>

using namespace optiml;

namespace {

std::string examplePath(llvm::StringRef Name) {
  return std::string(OPTIML_UNITTEST_INPUTS) + "/../../../examples/" +
         Name.str() + ".cu";
}

/// Every rewrite is faster by 10% per step, unrolling fails to verify:
/// enough landscape to see the search move, prune and report.
class FakeMeasurer : public Measurer {
public:
  Measurement measure(const Candidate &C) override {
    ++Calls;
    Measurement M;
    M.Status = CandidateStatus::Ok;
    if (!C.Steps.empty() && C.Steps.back().Transform == "unroll") {
      M.Status = CandidateStatus::VerifyFailed;
      M.Log = "outputs differ";
      return M;
    }
    M.Speedup = 1 + 0.1 * C.Steps.size();
    M.Threshold = 0.02;
    M.Noise = 0.005;
    M.Significant = !C.Steps.empty();
    M.ReferenceTimeNs = 1000;
    M.TimeNs = 1000 / M.Speedup;
    return M;
  }
  unsigned Calls = 0;
};

class OptimizeTest : public ::testing::Test {
protected:
  OptimizeTest()
      : DB(".", {"-std=c++17"}),
        Parser(DB, CudaToolchain::detect("optiml-unittests", "", "")),
        Registry(makeTransformRegistry()) {}

  /// The search's expander for an example, or for \p Kernel of \p Path.
  std::unique_ptr<SearchExpander> expander(llvm::StringRef Example = "saxpy",
                                           llvm::StringRef Path = "") {
    auto Source =
        KernelSource::fromFile(Path.empty() ? examplePath(Example) : Path);
    EXPECT_TRUE(bool(Source));
    if (!Source)
      return nullptr;
    auto P = Parser.parse(*Source);
    EXPECT_TRUE(bool(P));
    if (!P)
      return nullptr;
    return std::make_unique<SearchExpander>(Registry, Parser, std::move(*P),
                                            Example.str(), "", "sm_90");
  }

  /// A fresh output folder and an in-memory database that knows saxpy.
  struct Problem {
    llvm::SmallString<128> Dir;
    std::optional<Database> Db;
    int64_t Id = 0;
    ~Problem() {
      if (!Dir.empty())
        llvm::sys::fs::remove_directories(Dir);
    }
  };
  void openProblem(SearchExpander &E, Problem &P) {
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("optiml-optimize", P.Dir));
    auto Db = Database::open(":memory:");
    ASSERT_TRUE(bool(Db)) << llvm::toString(Db.takeError());
    P.Db.emplace(std::move(*Db));
    auto Id = P.Db->kernelId({0, E.rootHash(), "saxpy", "{}", "fake", "sm_90"});
    ASSERT_TRUE(bool(Id));
    P.Id = *Id;
  }

  clang::tooling::FixedCompilationDatabase DB;
  SourceParser Parser;
  TransformRegistry Registry;
};

TEST_F(OptimizeTest, ExpanderListsLegalStepsWithPriorsSummingToOne) {
  auto E = expander();
  ASSERT_TRUE(E);
  Trace None;
  Measurement NoCounters;
  std::string Root = E->rootHash();
  auto Actions = E->actions({None, Root, NoCounters});
  ASSERT_TRUE(bool(Actions)) << llvm::toString(Actions.takeError());
  ASSERT_FALSE(Actions->empty());
  double Sum = 0;
  bool SawBlockVariant = false;
  for (const ScoredAction &A : *Actions) {
    Sum += A.Prior;
    SawBlockVariant |=
        A.Action.Transform == "block-size" && A.Action.Params.get("x") == "128";
  }
  EXPECT_NEAR(Sum, 1.0, 1e-9);
  EXPECT_TRUE(SawBlockVariant) << "parameter neighbours are proposed";

  auto Hash = E->apply(None, Root, Actions->front().Action);
  ASSERT_TRUE(bool(Hash)) << llvm::toString(Hash.takeError());
  EXPECT_NE(Hash->Hash, Root);
  ASSERT_TRUE(E->sourceText(Hash->Hash));
  EXPECT_NE(*E->sourceText(Hash->Hash), *E->sourceText(Root));
  // The rewrite keeps a kernel the measurer can launch, with its own spec.
  auto SK = E->stateKernel(Hash->Hash);
  ASSERT_TRUE(bool(SK)) << llvm::toString(SK.takeError());
  EXPECT_TRUE(SK->Spec.has_value());
}

TEST_F(OptimizeTest, ExpanderProposesOnlyTheTransformsItIsLimitedTo) {
  auto E = expander();
  ASSERT_TRUE(E);
  E->limitTo({"block-size", "restrict"});
  auto Actions = E->actions({Trace(), E->rootHash(), Measurement()});
  ASSERT_TRUE(bool(Actions)) << llvm::toString(Actions.takeError());
  std::set<std::string> Seen;
  for (const ScoredAction &A : *Actions)
    Seen.insert(A.Action.Transform);
  EXPECT_EQ(Seen, (std::set<std::string>{"block-size", "restrict"}));
}

/// The chain moves among \p Moves, by spelling, with their priors.
std::map<std::string, double> chainsOf(const std::vector<ScoredAction> &Moves) {
  std::map<std::string, double> Out;
  for (const ScoredAction &A : Moves)
    if (StepChain::isChain(A.Action))
      Out[A.Action.str()] = A.Prior;
  return Out;
}

TEST_F(OptimizeTest, ASitesOtherParameterValuesFollowItsDefault) {
  auto E = expander("sgemm");
  ASSERT_TRUE(E);
  auto Actions = E->actions({Trace(), E->rootHash(), Measurement()});
  ASSERT_TRUE(bool(Actions)) << llvm::toString(Actions.takeError());
  // The first step of each (transform, site) is its default; the others
  // weigh a third of it (without counters every default weighs the same).
  std::map<std::string, double> Default;
  unsigned Neighbours = 0;
  for (const ScoredAction &A : *Actions) {
    if (StepChain::isChain(A.Action))
      continue;
    std::string Key = A.Action.Transform + " " + A.Action.Site;
    auto [It, First] = Default.insert({Key, A.Prior});
    if (First)
      continue;
    ++Neighbours;
    EXPECT_NEAR(A.Prior, It->second / 3, 1e-12) << A.Action.str();
  }
  EXPECT_GT(Neighbours, 0u);
}

TEST_F(OptimizeTest, ExpanderOffersChainsAtTheStartOfBlocking) {
  auto E = expander("sgemm");
  ASSERT_TRUE(E);
  auto Actions = E->actions({Trace(), E->rootHash(), Measurement()});
  ASSERT_TRUE(bool(Actions)) << llvm::toString(Actions.takeError());
  std::map<std::string, double> Chains = chainsOf(*Actions);
  // sgemm runs 16x16 blocks: register blocking in three sizes, four rows a
  // thread in 16x4 blocks, and both operands staged at once.
  std::vector<std::string> Names;
  for (const auto &[Spelling, Prior] : Chains)
    Names.push_back(Spelling);
  EXPECT_EQ(Names,
            (std::vector<std::string>{
                "chain:register-block(site=sgemm,y=4,x=4,tile=16)",
                "chain:register-block(site=sgemm,y=8,x=4,tile=16)",
                "chain:register-block(site=sgemm,y=8,x=8,tile=16)",
                "chain:rows-per-thread(site=sgemm,x=16,y=4,z=1,factor=4)",
                "chain:stage-operands(site=sgemm,tile=16)"}));
  // Each chain weighs twice the best single step; all sum to one.
  double Sum = 0, BestSingle = 0;
  for (const ScoredAction &A : *Actions) {
    Sum += A.Prior;
    if (!StepChain::isChain(A.Action))
      BestSingle = std::max(BestSingle, A.Prior);
  }
  EXPECT_NEAR(Sum, 1.0, 1e-9);
  for (const auto &[Spelling, Prior] : Chains)
    EXPECT_DOUBLE_EQ(Prior, 2 * BestSingle) << Spelling;

  // Applying one takes every link; the state it reaches offers no chain.
  Step RegisterBlock;
  for (const ScoredAction &A : *Actions)
    if (A.Action.str() == Names[2])
      RegisterBlock = A.Action;
  auto Applied = E->apply(Trace(), E->rootHash(), RegisterBlock);
  ASSERT_TRUE(bool(Applied)) << llvm::toString(Applied.takeError());
  EXPECT_EQ(toString(Applied->Steps),
            "coarsen(site=sgemm,dim=y,factor=8); "
            "coarsen(site=sgemm,dim=x,factor=8); "
            "stage-shared(site=sgemm/for#1/A,tile=16); "
            "stage-shared(site=sgemm/for#1/B,tile=16)");
  EXPECT_NE(E->sourceText(Applied->Hash)->find("__shared__"),
            std::string::npos);
  auto After = E->actions({Applied->Steps, Applied->Hash, Measurement()});
  ASSERT_TRUE(bool(After)) << llvm::toString(After.takeError());
  EXPECT_TRUE(chainsOf(*After).empty());
}

TEST_F(OptimizeTest, ARecipeStartsWithTheChains) {
  // linear_nt is a float matrix product whose spec allows low precision:
  // the tensor-core rewrite is a whole recipe, ranked with the chains.
  auto E = expander("linear_nt", std::string(OPTIML_UNITTEST_INPUTS) +
                                     "/../../../benchmarks/corpus/"
                                     "gemm_lowp.cu");
  ASSERT_TRUE(E);
  auto Actions = E->actions({Trace(), E->rootHash(), Measurement()});
  ASSERT_TRUE(bool(Actions)) << llvm::toString(Actions.takeError());
  std::map<std::string, double> Chains = chainsOf(*Actions);
  ASSERT_FALSE(Chains.empty());
  double ChainPrior = Chains.begin()->second;
  std::optional<double> Default;
  unsigned Others = 0;
  double BestOther = 0;
  for (const ScoredAction &A : *Actions) {
    if (StepChain::isChain(A.Action))
      continue;
    if (A.Action.Transform != "tensor-cores") {
      BestOther = std::max(BestOther, A.Prior);
      continue;
    }
    if (!Default) {
      Default = A.Prior;
      EXPECT_DOUBLE_EQ(A.Prior, ChainPrior) << A.Action.str();
    } else {
      ++Others;
      EXPECT_DOUBLE_EQ(A.Prior, ChainPrior / 3) << A.Action.str();
    }
  }
  ASSERT_TRUE(Default.has_value()) << "tensor-cores is legal on linear_nt";
  EXPECT_GT(Others, 0u);
  EXPECT_GT(*Default, BestOther);
}

TEST_F(OptimizeTest, RetunesAreTheStepsOtherValuesOfSearchedTransforms) {
  auto E = expander("linear_nt", std::string(OPTIML_UNITTEST_INPUTS) +
                                     "/../../../benchmarks/corpus/"
                                     "gemm_lowp.cu");
  ASSERT_TRUE(E);
  Step Paid{"tensor-cores", "linear_nt/for#0", {}};
  Paid.Params.set("precision", "tf32");
  Paid.Params.set("tile", "64");
  std::set<std::string> Retunes;
  for (const Step &S : E->retunes(Paid))
    Retunes.insert(S.str());
  EXPECT_TRUE(Retunes.count(
      "tensor-cores(site=linear_nt/for#0,precision=tf32,tile=128)"));
  EXPECT_TRUE(Retunes.count(
      "tensor-cores(site=linear_nt/for#0,precision=bf16,tile=64)"));
  // The nearest values only: half is two places from tf32.
  EXPECT_FALSE(Retunes.count(
      "tensor-cores(site=linear_nt/for#0,precision=half,tile=64)"));
  EXPECT_EQ(Retunes.size(), 4u); // tf32x3, bf16; tile 32, 128.
  EXPECT_FALSE(Retunes.count(Paid.str()));
  // A chain has no parameter domain to move in; a transform left out of
  // the search has no retunes either.
  Step Chain{"chain:regblock", "linear_nt", {}};
  Chain.Params.set("x", "8");
  EXPECT_TRUE(E->retunes(Chain).empty());
  E->limitTo({"restrict"});
  EXPECT_TRUE(E->retunes(Paid).empty());
}

TEST_F(OptimizeTest, ChainsNeedEveryTransformTheyUseAndASecondDimension) {
  auto Limited = expander("sgemm");
  ASSERT_TRUE(Limited);
  // Without stage-shared no chain can end; coarsen alone stays a step.
  Limited->limitTo({"coarsen", "block-size", "restrict"});
  auto Actions =
      Limited->actions({Trace(), Limited->rootHash(), Measurement()});
  ASSERT_TRUE(bool(Actions)) << llvm::toString(Actions.takeError());
  EXPECT_TRUE(chainsOf(*Actions).empty());
  // saxpy is one-dimensional and stages nothing.
  auto Saxpy = expander();
  ASSERT_TRUE(Saxpy);
  auto SaxpyActions =
      Saxpy->actions({Trace(), Saxpy->rootHash(), Measurement()});
  ASSERT_TRUE(bool(SaxpyActions));
  EXPECT_TRUE(chainsOf(*SaxpyActions).empty());
}

TEST_F(OptimizeTest, ExpanderWeighsStepsByTheProfilersFindings) {
  auto E = expander();
  ASSERT_TRUE(E);
  Trace None;
  Measurement Measured;
  Measured.Runner = std::make_shared<const protocol::RunResult>(
      test::h200Result(test::Saxpy));
  auto Actions = E->actions({None, E->rootHash(), Measured});
  ASSERT_TRUE(bool(Actions)) << llvm::toString(Actions.takeError());
  // saxpy streams at 70% of the DRAM peak: dram-bound, which suggests
  // vectorize first.
  std::map<std::string, double> ByTransform;
  for (const ScoredAction &A : *Actions) {
    ByTransform[A.Action.Transform] += A.Prior;
    if (A.Action.Transform == "vectorize")
      EXPECT_EQ(A.Motivation.rfind("dram-bound: ", 0), 0u) << A.Motivation;
  }
  auto Top = std::max_element(
      ByTransform.begin(), ByTransform.end(),
      [](const auto &A, const auto &B) { return A.second < B.second; });
  EXPECT_EQ(Top->first, "vectorize");
}

// A row sum, one thread a row: its counters (here the naive transpose's,
// cache-bound) say how slow it is; its source says why, neighbouring
// threads reading rows `n` elements apart, and that static finding reaches
// the priors as a hint, which warp-per-row answers.
TEST_F(OptimizeTest, ExpanderWeighsTheSourcesStaticFindingsToo) {
  auto P = Parser.parse(KernelSource("row_sums.cu", R"cu(
__global__ void row_sums(const float *__restrict__ a, float *__restrict__ s,
                         int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float sum = 0.0f;
    for (int j = 0; j < n; ++j)
      sum += a[row * n + j];
    s[row] = sum;
  }
}
void run(const float *a, float *s, int m, int n) {
  row_sums<<<(m + 127) / 128, 128>>>(a, s, m, n);
}
)cu"));
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  SearchExpander E(Registry, Parser, std::move(*P), "row_sums", "", "sm_90");
  Measurement Measured;
  Measured.Runner = std::make_shared<const protocol::RunResult>(
      test::h200Result(test::Transpose));
  auto Actions = E.actions({Trace(), E.rootHash(), Measured});
  ASSERT_TRUE(bool(Actions)) << llvm::toString(Actions.takeError());
  std::string Cited;
  for (const ScoredAction &A : *Actions)
    if (A.Action.Transform == "warp-per-row")
      Cited = A.Motivation;
  EXPECT_EQ(Cited.rfind("hint:strided-access: At row_sums/load:a#0: ", 0), 0u)
      << Cited;
}

// A block per row, its threads striding the row by the block's size: the
// source says each thread has one iteration's loads in flight, and the
// explicit unrolling of that loop is the move to try first among unrolls.
TEST_F(OptimizeTest, AStrideLoopHintRaisesItsExplicitUnrolling) {
  auto P = Parser.parse(KernelSource("row_norm.cu", R"cu(
__global__ void row_norm(const float *__restrict__ x, float *__restrict__ out,
                         int n) {
  __shared__ float part[256];
  const float *row = x + (size_t)blockIdx.x * n;
  float ss = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    ss += row[i] * row[i];
  part[threadIdx.x] = ss;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.0f;
    for (int k = 0; k < 256; ++k)
      t += part[k];
    out[blockIdx.x] = t;
  }
}
void run(const float *x, float *out, int rows, int n) {
  row_norm<<<rows, 256>>>(x, out, n);
}
)cu"));
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  SearchExpander E(Registry, Parser, std::move(*P), "row_norm", "", "sm_90");
  Measurement Measured;
  Measured.Runner = std::make_shared<const protocol::RunResult>(
      test::h200Result(test::Transpose));
  auto Actions = E.actions({Trace(), E.rootHash(), Measured});
  ASSERT_TRUE(bool(Actions)) << llvm::toString(Actions.takeError());
  const ScoredAction *Explicit = nullptr;
  for (const ScoredAction &A : *Actions)
    if (A.Action.str() == "unroll(site=row_norm/for#0,factor=4,mode=explicit)")
      Explicit = &A;
  ASSERT_NE(Explicit, nullptr);
  EXPECT_NE(Explicit->Motivation.find("hint:stride-loop"), std::string::npos)
      << Explicit->Motivation;
  for (const ScoredAction &A : *Actions)
    if (A.Action.Transform == "unroll" && &A != Explicit)
      EXPECT_GE(Explicit->Prior, A.Prior) << A.Action.str();
}

TEST_F(OptimizeTest, NeighboursKeepTheOtherParameters) {
  Step S{"block-size", "saxpy", {}};
  S.Params.set("x", "256");
  S.Params.set("y", "1");
  S.Params.set("z", "1");
  std::vector<std::string> Xs;
  for (const Step &N : parameterNeighbours(S, Registry))
    if (N.Params.get("y") == "1" && N.Params.get("z") == "1")
      Xs.push_back(N.Params.get("x").str());
  EXPECT_NE(llvm::find(Xs, "128"), Xs.end());
  EXPECT_NE(llvm::find(Xs, "512"), Xs.end());
}

// A step that paid has its numbers' larger values retuned first: a larger
// tile or thread count before a smaller one.
TEST_F(OptimizeTest, RetunesTryTheLargerNumberFirst) {
  auto E = expander();
  ASSERT_TRUE(E);
  Step S{"block-size", "saxpy", {}};
  S.Params.set("x", "256");
  S.Params.set("y", "1");
  S.Params.set("z", "1");
  std::vector<std::string> Xs;
  for (const Step &R : E->retunes(S))
    if (R.Params.get("x") != "256")
      Xs.push_back(R.Params.get("x").str());
  EXPECT_EQ(Xs, (std::vector<std::string>{"512", "128"}));
  // The neighbours the moves list keep the domain's order.
  std::vector<std::string> Listed;
  for (const Step &N : parameterNeighbours(S, Registry, 1))
    if (N.Params.get("x") != "256")
      Listed.push_back(N.Params.get("x").str());
  EXPECT_EQ(Listed, (std::vector<std::string>{"128", "512"}));
}

TEST_F(OptimizeTest, WholeSearchWithAFakeMeasurer) {
  auto E = expander();
  ASSERT_TRUE(E);
  Problem P;
  openProblem(*E, P);
  if (HasFatalFailure())
    return;
  llvm::SmallString<128> &Dir = P.Dir;
  Database &Db = *P.Db;

  OptimizeOptions O;
  O.Strategy = "greedy";
  O.Budget = 8;
  O.OutputPath = (Dir + "/saxpy.opt.cu").str();
  FakeMeasurer M;
  std::string Log;
  llvm::raw_string_ostream LogOS(Log);
  auto Out = runOptimizeSearch(*E, M, Db, P.Id, "saxpy", O, LogOS, false);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  std::printf("--- what --optimize prints (fake measurer) ---\n%s",
              Log.c_str());

  EXPECT_TRUE(Out->Improved);
  EXPECT_GT(Out->BestSpeedup, 1.05);
  EXPECT_LE(M.Calls, 8u);
  auto Written = llvm::MemoryBuffer::getFile(O.OutputPath);
  ASSERT_TRUE(bool(Written));
  EXPECT_NE((*Written)->getBuffer(), *E->sourceText(E->rootHash()));
  EXPECT_EQ(Out->ReportMarkdown, (Dir + "/saxpy.opt.report.md").str());
  EXPECT_TRUE(llvm::sys::fs::exists(Out->ReportMarkdown));
  auto J = llvm::MemoryBuffer::getFile(Out->ReportJSON);
  ASSERT_TRUE(bool(J));
  EXPECT_TRUE(nlohmann::json::accept((*J)->getBuffer().str()));
  EXPECT_NE(Log.find("clang-optiml: best "), std::string::npos);

  // A rerun is answered from the database: nothing measured again.
  FakeMeasurer Again;
  auto E2 = expander();
  std::string Log2;
  llvm::raw_string_ostream Log2OS(Log2);
  O.Resume = true;
  auto Out2 =
      runOptimizeSearch(*E2, Again, Db, P.Id, "saxpy", O, Log2OS, false);
  ASSERT_TRUE(bool(Out2)) << llvm::toString(Out2.takeError());
  EXPECT_GT(Out2->Cached, 0u);
  // It replays the first run for free and continues past it.
  EXPECT_GE(Out2->BestSpeedup, Out->BestSpeedup);
}

/// The fake measurer that also counts each source's measurements and the
/// searches it was told of.
class CountingMeasurer : public FakeMeasurer {
public:
  Measurement measure(const Candidate &C) override {
    ++Times[C.Hash];
    return FakeMeasurer::measure(C);
  }
  void newSearch() override { ++Searches; }
  std::map<std::string, unsigned> Times;
  unsigned Searches = 0;
};

TEST_F(OptimizeTest, CompareRunsEveryStrategyOnOneDatabase) {
  auto E = expander();
  ASSERT_TRUE(E);
  Problem P;
  openProblem(*E, P);
  if (HasFatalFailure())
    return;
  OptimizeOptions O;
  O.Compare = {"mcts", "greedy", "random"};
  O.CompareSeeds = 2;
  O.Seed = 7;
  O.Budget = 6;
  O.OutputPath = (P.Dir + "/saxpy.opt.cu").str();
  CountingMeasurer M;
  std::string Log;
  llvm::raw_string_ostream LogOS(Log);
  auto Out = compareStrategies(*E, M, *P.Db, P.Id, "saxpy", O, LogOS, false);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(M.Searches, 4u); // mcts, greedy, random seeds 7 and 8.
  for (const auto &[Hash, Times] : M.Times)
    EXPECT_EQ(Times, 1u) << "measured twice: " << Hash;

  std::string Prefix = (P.Dir + "/saxpy.opt.report").str();
  EXPECT_EQ(Out->ReportJSON, Prefix + ".compare.json");
  EXPECT_TRUE(llvm::sys::fs::exists(Prefix + ".compare.md"));
  auto Text = llvm::MemoryBuffer::getFile(Out->ReportJSON);
  ASSERT_TRUE(bool(Text));
  nlohmann::json J = nlohmann::json::parse((*Text)->getBuffer().str());
  ASSERT_EQ(J["runs"].size(), 4u);
  double Best = 0, RandomSum = 0;
  for (const nlohmann::json &R : J["runs"]) {
    // Each search had the whole budget, the database's answers counted.
    EXPECT_LE(R["evaluated"].get<unsigned>() + R["cached"].get<unsigned>(), 6u);
    EXPECT_TRUE(llvm::sys::fs::exists(R["report"].get<std::string>()));
    Best = std::max(Best, R["best_speedup"].get<double>());
    if (R["strategy"] == "random")
      RandomSum += R["best_speedup"].get<double>();
  }
  EXPECT_EQ(J["runs"][0]["evaluated"].get<unsigned>() +
                J["runs"][0]["cached"].get<unsigned>(),
            6u);
  EXPECT_EQ(J["runs"][2]["seed"], 7);
  EXPECT_EQ(J["runs"][3]["seed"], 8);
  EXPECT_DOUBLE_EQ(Out->BestSpeedup, Best);
  ASSERT_EQ(J["strategies"].size(), 3u);
  EXPECT_EQ(J["strategies"][2]["runs"], 2);
  EXPECT_DOUBLE_EQ(J["strategies"][2]["mean"].get<double>(), RandomSum / 2);
  // -o is the best search's kernel, as that search wrote it.
  std::string Winner;
  for (const nlohmann::json &R : J["runs"])
    if (Winner.empty() && R["best_speedup"].get<double>() == Best)
      Winner = R["report"].get<std::string>();
  llvm::StringRef WinnerPrefix = llvm::StringRef(Winner).drop_back(5);
  auto Written = llvm::MemoryBuffer::getFile(O.OutputPath);
  auto Its = llvm::MemoryBuffer::getFile(WinnerPrefix.str() + ".cu");
  ASSERT_TRUE(Written && Its);
  EXPECT_EQ((*Written)->getBuffer(), (*Its)->getBuffer());
  EXPECT_NE(Log.find("--compare at budget 6: mean best mcts"),
            std::string::npos)
      << Log;
}

TEST_F(OptimizeTest, AStoppedCompareTablesTheSearchesThatRan) {
  auto E = expander();
  ASSERT_TRUE(E);
  Problem P;
  openProblem(*E, P);
  if (HasFatalFailure())
    return;
  OptimizeOptions O;
  O.Compare = {"greedy", "random"};
  O.CompareSeeds = 3;
  O.Budget = 4;
  O.OutputPath = (P.Dir + "/saxpy.opt.cu").str();
  // Ctrl-C once the second search has started.
  CountingMeasurer M;
  O.StopRequested = [&] { return M.Searches >= 2 && M.Calls > 0; };
  std::string Log;
  llvm::raw_string_ostream LogOS(Log);
  auto Out = compareStrategies(*E, M, *P.Db, P.Id, "saxpy", O, LogOS, false);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(Out->Why, StopReason::Interrupted);
  EXPECT_NE(Log.find("--compare was stopped after 2 of 4 searches"),
            std::string::npos)
      << Log;
  auto Text = llvm::MemoryBuffer::getFile(Out->ReportJSON);
  ASSERT_TRUE(bool(Text));
  nlohmann::json J = nlohmann::json::parse((*Text)->getBuffer().str());
  EXPECT_EQ(J["runs"].size(), 2u);
  EXPECT_TRUE(llvm::sys::fs::exists(O.OutputPath));
}

TEST_F(OptimizeTest, CompareRefusesWhatItCannotCompare) {
  OptimizeOptions O;
  O.Compare = {"mcts", "beam"};
  EXPECT_NE(
      llvm::toString(checkCompareOptions(O)).find("unknown --strategy 'beam'"),
      std::string::npos);
  O.Compare = {"random", "random"};
  EXPECT_NE(llvm::toString(checkCompareOptions(O)).find("names 'random' twice"),
            std::string::npos);
  O.Compare = {"mcts"};
  O.CompareSeeds = 0;
  EXPECT_NE(llvm::toString(checkCompareOptions(O))
                .find("--compare-seeds=0 is outside 1..100"),
            std::string::npos);
}

TEST_F(OptimizeTest, AnInterruptedSearchStillWritesTheBestSoFar) {
  auto E = expander();
  ASSERT_TRUE(E);
  Problem P;
  openProblem(*E, P);
  if (HasFatalFailure())
    return;
  llvm::SmallString<128> &Dir = P.Dir;
  Database &Db = *P.Db;

  OptimizeOptions O;
  O.Strategy = "greedy";
  O.Budget = 64;
  O.BatchSize = 2;
  O.OutputPath = (Dir + "/saxpy.opt.cu").str();
  FakeMeasurer M;
  // Ctrl-C while the fourth candidate is measured.
  O.StopRequested = [&] { return M.Calls > 3; };
  std::string Log;
  llvm::raw_string_ostream LogOS(Log);
  auto Out = runOptimizeSearch(*E, M, Db, P.Id, "saxpy", O, LogOS, false);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(Out->Why, StopReason::Interrupted);
  EXPECT_EQ(M.Calls, 4u);
  // The original and the two children before it count; the fourth not.
  EXPECT_EQ(Out->Evaluated, 3u);
  EXPECT_TRUE(Out->Improved);
  auto Written = llvm::MemoryBuffer::getFile(O.OutputPath);
  ASSERT_TRUE(bool(Written));
  // -o is the best source with the lines the search changed formatted
  // (the restrict-qualified signature is wrapped at 80 columns).
  auto Spaceless = [](llvm::StringRef Text) {
    std::string Out;
    for (char C : Text)
      if (!llvm::isSpace(C))
        Out += C;
    return Out;
  };
  llvm::StringRef Text = (*Written)->getBuffer();
  EXPECT_EQ(Spaceless(Text), Spaceless(Out->BestSource));
  EXPECT_NE(Text, Out->BestSource);
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    EXPECT_LE(L.size(), 80u) << L.str();
  EXPECT_TRUE(llvm::sys::fs::exists(Out->ReportMarkdown));
  EXPECT_TRUE(llvm::sys::fs::exists(Out->ReportHTML));
  EXPECT_NE(Log.find("clang-optiml: stopped (interrupted)"), std::string::npos)
      << Log;
  // The cut-short batch left nothing in the database to be "never retried".
  auto Records = Db.candidates(P.Id);
  ASSERT_TRUE(bool(Records)) << llvm::toString(Records.takeError());
  EXPECT_EQ(Records->size(), 3u);
}

} // namespace

namespace {

/// Each step makes the kernel 5% slower and 20% more frugal: what a time
/// search rejects, an energy search wants. \p WithEnergy false: a GPU
/// without the energy counter.
class EnergyMeasurer : public Measurer {
public:
  explicit EnergyMeasurer(bool WithEnergy) : WithEnergy(WithEnergy) {}
  Measurement measure(const Candidate &C) override {
    Measurement M;
    M.Status = CandidateStatus::Ok;
    double Steps = C.Steps.size();
    M.Speedup = std::pow(0.95, Steps);
    M.Threshold = 0.02;
    M.Significant = !C.Steps.empty();
    M.ReferenceTimeNs = 1000;
    M.TimeNs = 1000 / M.Speedup;
    if (WithEnergy) {
      M.ReferenceJoules = 1e-3;
      M.Joules = 1e-3 * std::pow(0.8, Steps);
      M.EnergySpread = 0.012;
    }
    return M;
  }
  bool WithEnergy;
};

/// The original reads 10% less energy against itself (one reading a side
/// can); every rewrite uses more.
class NoisyOriginalMeasurer : public Measurer {
public:
  Measurement measure(const Candidate &C) override {
    Measurement M;
    M.Status = CandidateStatus::Ok;
    M.Speedup = 1;
    M.Threshold = 0.02;
    M.ReferenceTimeNs = M.TimeNs = 1000;
    M.ReferenceJoules = 1.1e-3;
    M.Joules = C.Steps.empty() ? 1e-3 : 1.5e-3;
    return M;
  }
};

} // namespace

TEST_F(OptimizeTest, TheOriginalIsNoGainHoweverItsEnergyReads) {
  auto E = expander();
  ASSERT_TRUE(E);
  Problem P;
  openProblem(*E, P);
  if (HasFatalFailure())
    return;
  OptimizeOptions O;
  O.Strategy = "greedy";
  O.Budget = 4;
  O.Goal = Objective::Energy;
  O.OutputPath = (P.Dir + "/saxpy.opt.cu").str();
  NoisyOriginalMeasurer M;
  std::string Log;
  llvm::raw_string_ostream LogOS(Log);
  auto Out = runOptimizeSearch(*E, M, *P.Db, P.Id, "saxpy", O, LogOS, false);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_FALSE(Out->Improved);
  auto J = llvm::MemoryBuffer::getFile(Out->ReportJSON);
  ASSERT_TRUE(bool(J));
  auto Report = nlohmann::json::parse((*J)->getBuffer().str());
  EXPECT_DOUBLE_EQ(Report["best_gain"].get<double>(), 1.0);
  EXPECT_EQ(Report["best_trace"], "");
}

TEST_F(OptimizeTest, AnEnergySearchRanksByJoulesAndReportsThem) {
  auto E = expander();
  ASSERT_TRUE(E);
  Problem P;
  openProblem(*E, P);
  if (HasFatalFailure())
    return;
  OptimizeOptions O;
  O.Strategy = "greedy";
  O.Budget = 6;
  O.Goal = Objective::Energy;
  O.OutputPath = (P.Dir + "/saxpy.opt.cu").str();
  EnergyMeasurer M(true);
  std::string Log;
  llvm::raw_string_ostream LogOS(Log);
  auto Out = runOptimizeSearch(*E, M, *P.Db, P.Id, "saxpy", O, LogOS, false);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  // Slower, yet the best: it uses less energy.
  EXPECT_TRUE(Out->Improved);
  EXPECT_NE(Log.find("less energy per launch (at 0."), std::string::npos)
      << Log;
  auto J = llvm::MemoryBuffer::getFile(Out->ReportJSON);
  ASSERT_TRUE(bool(J));
  auto Report = nlohmann::json::parse((*J)->getBuffer().str());
  EXPECT_EQ(Report["objective"], "energy");
  EXPECT_GE(Report["best_gain"].get<double>(), 1.25);
  EXPECT_DOUBLE_EQ(Report["joules_original"].get<double>(), 1e-3);
  EXPECT_LT(Report["joules_best"].get<double>(), 1e-3);
  ASSERT_FALSE(Report["steps"].empty());
  EXPECT_TRUE(Report["steps"][0]["joules_per_launch"].is_number());
  EXPECT_DOUBLE_EQ(Report["steps"][0]["energy_spread"].get<double>(), 0.012);
  auto Md = llvm::MemoryBuffer::getFile(Out->ReportMarkdown);
  ASSERT_TRUE(bool(Md));
  EXPECT_NE((*Md)->getBuffer().find("| Energy per launch |"),
            llvm::StringRef::npos);
  // Each step's energy with the spread of its rounds.
  EXPECT_NE((*Md)->getBuffer().find("J ±1.2% |"), llvm::StringRef::npos)
      << (*Md)->getBuffer().str();

  // The same search for time keeps the original.
  auto E2 = expander();
  Problem P2;
  openProblem(*E2, P2);
  if (HasFatalFailure())
    return;
  O.Goal = Objective::Time;
  O.OutputPath = (P2.Dir + "/saxpy.opt.cu").str();
  EnergyMeasurer M2(true);
  std::string Log2;
  llvm::raw_string_ostream Log2OS(Log2);
  auto Out2 =
      runOptimizeSearch(*E2, M2, *P2.Db, P2.Id, "saxpy", O, Log2OS, false);
  ASSERT_TRUE(bool(Out2)) << llvm::toString(Out2.takeError());
  EXPECT_FALSE(Out2->Improved);
}

TEST_F(OptimizeTest, AnEnergySearchWithoutTheCounterStopsWithItsReason) {
  auto E = expander();
  ASSERT_TRUE(E);
  Problem P;
  openProblem(*E, P);
  if (HasFatalFailure())
    return;
  OptimizeOptions O;
  O.Strategy = "greedy";
  O.Budget = 4;
  O.Goal = Objective::Edp;
  O.OutputPath = (P.Dir + "/saxpy.opt.cu").str();
  EnergyMeasurer M(false);
  std::string Log;
  llvm::raw_string_ostream LogOS(Log);
  auto Out = runOptimizeSearch(*E, M, *P.Db, P.Id, "saxpy", O, LogOS, false);
  ASSERT_FALSE(bool(Out));
  std::string Message = llvm::toString(Out.takeError());
  EXPECT_NE(Message.find("--objective=edp needs the GPU's energy counter"),
            std::string::npos)
      << Message;
  EXPECT_FALSE(llvm::sys::fs::exists(O.OutputPath));
}
