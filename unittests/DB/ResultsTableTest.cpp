//===- ResultsTableTest.cpp - the results cache in the database -----------===//

#include "optiml/DB/Database.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

ResultRecord result(std::string Gpu, double Speedup, std::string Steps) {
  ResultRecord R;
  R.Kernel = "saxpy";
  R.KernelHash = std::string(64, 'a');
  R.SpecHash = std::string(64, 'b');
  R.Arch = "sm_90";
  R.Gpu = std::move(Gpu);
  R.Cuda = "12.8";
  R.Tool = "0.1.0";
  R.Flags = "";
  R.Steps = std::move(Steps);
  R.ResultText = "__global__ void saxpy() {}";
  R.Speedup = Speedup;
  return R;
}

Database memory() { return llvm::cantFail(Database::open(":memory:")); }

TEST(ResultsTableTest, AFasterResultReplacesASlowerOneOfTheSameKey) {
  Database Db = memory();
  EXPECT_TRUE(llvm::cantFail(Db.putResult(result("H200", 1.2, "a(site=k)"))));
  // Slower or equal: the stored result stands.
  EXPECT_FALSE(llvm::cantFail(Db.putResult(result("H200", 1.1, "b(site=k)"))));
  EXPECT_FALSE(llvm::cantFail(Db.putResult(result("H200", 1.2, "c(site=k)"))));
  EXPECT_TRUE(llvm::cantFail(Db.putResult(result("H200", 1.5, "d(site=k)"))));
  auto All = llvm::cantFail(Db.results());
  ASSERT_EQ(All.size(), 1u);
  EXPECT_EQ(All[0].Steps, "d(site=k)");
  EXPECT_DOUBLE_EQ(All[0].Speedup, 1.5);
  EXPECT_GT(All[0].CreatedAt, 0);
}

TEST(ResultsTableTest, EachDeviceKeepsItsOwnResult) {
  Database Db = memory();
  llvm::cantFail(Db.putResult(result("H200", 1.2, "a(site=k)")));
  llvm::cantFail(Db.putResult(result("H100", 1.3, "b(site=k)")));
  ResultRecord Other = result("H200", 2.0, "c(site=k)");
  Other.SpecHash = std::string(64, 'c');
  llvm::cantFail(Db.putResult(Other));
  auto Found =
      llvm::cantFail(Db.resultsFor(std::string(64, 'a'), std::string(64, 'b')));
  ASSERT_EQ(Found.size(), 2u);
  EXPECT_EQ(Found[0].Gpu, "H200");
  EXPECT_EQ(Found[1].Gpu, "H100");
  EXPECT_EQ(llvm::cantFail(Db.results()).size(), 3u);
}

} // namespace
