//===- OptimizeSeedTest.cpp - --search-seed reaches the strategy ----------===//
//
// runOptimizeSearch on the recorded SGEMM landscape (the simulated runner
// stands in for the Expander and the GPU): the seed decides the random
// strategy's trace, the same seed repeats it, and the reports say which.
//
//===----------------------------------------------------------------------===//

#include "driver/Optimize/OptimizeSearch.h"
#include "optiml/Search/SimulatedEnvironment.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <nlohmann/json.hpp>

using namespace optiml;
using nlohmann::json;

namespace {

class OptimizeSeedTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-seed", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// The report's JSON after a search with \p Strategy and \p Seed, each
  /// run on a fresh database.
  json search(llvm::StringRef Strategy, uint64_t Seed) {
    auto Env = SimulatedEnvironment::fromFile(OPTIML_SEARCH_TEST_INPUTS
                                              "/sgemm-landscape.json");
    if (!Env) {
      ADD_FAILURE() << llvm::toString(Env.takeError());
      return {};
    }
    auto Db = Database::open(":memory:");
    if (!Db) {
      ADD_FAILURE() << llvm::toString(Db.takeError());
      return {};
    }
    auto Id = Db->kernelId({0, (*Env)->rootHash(), "sgemm", "{}", "sim", ""});
    if (!Id) {
      ADD_FAILURE() << llvm::toString(Id.takeError());
      return {};
    }
    OptimizeOptions O;
    O.Strategy = Strategy.str();
    O.Budget = 12;
    O.Seed = Seed;
    std::string Name = (Strategy + "-" + llvm::Twine(Seed)).str();
    O.OutputPath = (Dir + "/" + Name + ".cu").str();
    std::string Log;
    llvm::raw_string_ostream LogOS(Log);
    auto Out =
        runOptimizeSearch(**Env, **Env, *Db, *Id, "sgemm", O, LogOS, false);
    if (!Out) {
      ADD_FAILURE() << llvm::toString(Out.takeError());
      return {};
    }
    LastHtml = Out->ReportHTML;
    auto Text = llvm::MemoryBuffer::getFile(Out->ReportJSON);
    if (!Text) {
      ADD_FAILURE() << Out->ReportJSON << " was not written";
      return {};
    }
    return json::parse((*Text)->getBuffer().str());
  }

  static std::vector<std::string> traces(const json &Report) {
    std::vector<std::string> Out;
    for (const json &P : Report.value("series", json::array()))
      Out.push_back(P.value("trace", ""));
    return Out;
  }

  llvm::SmallString<128> Dir;
  std::string LastHtml;
};

TEST_F(OptimizeSeedTest, TheSeedDecidesTheRandomTrace) {
  json A = search("random", 1), B = search("random", 1),
       C = search("random", 2);
  ASSERT_EQ(traces(A).size(), 12u);
  EXPECT_EQ(traces(A), traces(B));
  EXPECT_NE(traces(A), traces(C));
  EXPECT_EQ(A["seed"], 1);
  EXPECT_EQ(C["seed"], 2);
  EXPECT_TRUE(A["wall_seconds"].is_number());
  EXPECT_EQ(LastHtml, (Dir + "/random-2.report.html").str());
  EXPECT_TRUE(llvm::sys::fs::exists(LastHtml));
}

TEST_F(OptimizeSeedTest, MctsMakesNoRandomChoices) {
  // Only random draws from the seed: MCTS's selection is deterministic
  // (the simulated runner's jitter has its own, fixed seed here).
  EXPECT_EQ(traces(search("mcts", 1)), traces(search("mcts", 2)));
}

} // namespace
