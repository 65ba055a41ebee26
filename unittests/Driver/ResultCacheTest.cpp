//===- ResultCacheTest.cpp - which cached result a build uses -------------===//

#include "driver/Cache/ResultCache.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

CacheKey key() {
  return {"saxpy", std::string(64, 'a'), std::string(64, 'b'), "sm_90", ""};
}

ResultRecord result(std::string Gpu, std::string Cuda, double Speedup) {
  ResultRecord R;
  R.Kernel = "saxpy";
  R.KernelHash = key().KernelHash;
  R.SpecHash = key().SpecHash;
  R.Arch = "sm_90";
  R.Gpu = std::move(Gpu);
  R.Cuda = std::move(Cuda);
  R.Tool = toolVersion().str();
  R.Speedup = Speedup;
  return R;
}

TEST(ResultCacheTest, ArchitectureAndFlagsMustMatch) {
  std::vector<ResultRecord> Found = {result("H200", "12.8", 1.5)};
  Found[0].Arch = "sm_80";
  EXPECT_EQ(chooseResult(Found, key(), "", ""), nullptr);
  Found[0].Arch = "sm_90";
  Found[0].Flags = "-lineinfo";
  EXPECT_EQ(chooseResult(Found, key(), "", ""), nullptr);
  Found[0].Flags = "";
  EXPECT_EQ(chooseResult(Found, key(), "", ""), &Found[0]);
}

TEST(ResultCacheTest, PrefersThisGpuThenThisToolkitThenTheFastest) {
  std::vector<ResultRecord> Found = {result("H100", "12.8", 1.9),
                                     result("H200", "12.4", 1.2),
                                     result("H200", "12.8", 1.1)};
  // No GPU, no toolkit known: the fastest.
  EXPECT_EQ(chooseResult(Found, key(), "", ""), &Found[0]);
  EXPECT_EQ(chooseResult(Found, key(), "H200", ""), &Found[1]);
  EXPECT_EQ(chooseResult(Found, key(), "H200", "12.8"), &Found[2]);
  EXPECT_EQ(chooseResult(Found, key(), "", "12.4"), &Found[1]);
}

TEST(ResultCacheTest, ThisToolVersionBeforeAFasterOlderOne) {
  std::vector<ResultRecord> Found = {result("H200", "12.8", 1.9),
                                     result("H200", "12.8", 1.2)};
  Found[0].Tool = "0.0.1";
  EXPECT_EQ(chooseResult(Found, key(), "H200", "12.8"), &Found[1]);
}

TEST(ResultCacheTest, CudaReleaseFromNvcc) {
  EXPECT_EQ(cudaRelease("Cuda compilation tools, release 12.8, V12.8.93"),
            "12.8");
  EXPECT_EQ(cudaRelease("nvcc: NVIDIA (R) Cuda compiler driver\nCuda "
                        "compilation tools, release 13.0, V13.0.48\n"),
            "13.0");
  EXPECT_EQ(cudaRelease(" unknown "), "unknown");
}

TEST(ResultCacheTest, FlagsKeyKeepsTheirOrder) {
  EXPECT_EQ(flagsKey({}), "");
  EXPECT_EQ(flagsKey({"-lineinfo", "-Xptxas=-v"}), "-lineinfo -Xptxas=-v");
}

} // namespace
