//===- CacheFileTest.cpp - the results cache as a JSON file ---------------===//

#include "driver/Cache/CacheFile.h"
#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

#include <nlohmann/json.hpp>

using namespace optiml;

namespace {

ResultRecord saxpy() {
  ResultRecord R;
  R.Kernel = "saxpy";
  R.KernelHash = std::string(64, 'a');
  R.SpecHash = std::string(64, 'b');
  R.Arch = "sm_90";
  R.Gpu = "NVIDIA H200";
  R.Cuda = "12.8";
  R.Tool = "0.1.0";
  R.Flags = "-lineinfo";
  R.Steps = "restrict(site=saxpy); unroll(site=saxpy/for#0,factor=4)";
  R.ResultText = "#pragma optiml kernel\n__global__ void saxpy() {}";
  R.Speedup = 1.25;
  R.CreatedAt = 1764000000;
  return R;
}

/// The error line parseCacheFile gives for \p Text.
std::string errorFor(const std::string &Text) {
  auto R = parseCacheFile(Text, "c.json");
  if (R)
    return "no error";
  ErrorSummary S = summarize(R.takeError());
  EXPECT_EQ(S.Kind, ErrorKind::BadInput);
  return S.Message;
}

/// A valid file with \p Edit applied to its JSON.
template <typename EditFn> std::string edited(EditFn Edit) {
  nlohmann::json J = nlohmann::json::parse(cacheFileText({saxpy()}));
  Edit(J);
  return J.dump();
}

TEST(CacheFileTest, RoundTrip) {
  std::string Text = cacheFileText({saxpy()});
  auto J = nlohmann::json::parse(Text);
  EXPECT_EQ(J["format"], "optiml-results");
  EXPECT_EQ(J["version"], 1);
  EXPECT_EQ(J["results"][0]["steps"].size(), 2u);
  EXPECT_EQ(J["results"][0]["steps"][1], "unroll(site=saxpy/for#0,factor=4)");
  auto Back = parseCacheFile(Text, "c.json");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  ASSERT_EQ(Back->size(), 1u);
  const ResultRecord &R = Back->front();
  EXPECT_EQ(R.Steps, saxpy().Steps);
  EXPECT_EQ(R.ResultText, saxpy().ResultText);
  EXPECT_EQ(R.Flags, "-lineinfo");
  EXPECT_DOUBLE_EQ(R.Speedup, 1.25);
  EXPECT_EQ(R.CreatedAt, 1764000000);
}

TEST(CacheFileTest, RefusesWhatIsNotAVersionOneCache) {
  EXPECT_EQ(errorFor("{\"format\": "), "c.json: not valid JSON");
  EXPECT_EQ(errorFor("[]"), "c.json: not an OptiML results cache (expected "
                            "\"format\": \"optiml-results\")");
  EXPECT_EQ(errorFor(edited([](auto &J) { J["version"] = 2; })),
            "c.json: cache format version 2 is not supported (this OptiML "
            "reads version 1)");
  EXPECT_EQ(errorFor(edited([](auto &J) { J["version"] = "1"; })),
            "c.json: version: missing or not an integer");
  EXPECT_EQ(errorFor(edited([](auto &J) { J.erase("results"); })),
            "c.json: results: missing");
}

TEST(CacheFileTest, NamesTheWrongKeyOfAnEntry) {
  EXPECT_EQ(
      errorFor(edited([](auto &J) { J["results"][0].erase("spec_hash"); })),
      "c.json: results[0].spec_hash: missing");
  EXPECT_EQ(
      errorFor(edited([](auto &J) { J["results"][0]["speedup"] = "fast"; })),
      "c.json: results[0].speedup: expected a number");
  EXPECT_EQ(errorFor(edited([](auto &J) { J["results"][0]["speedup"] = 0; })),
            "c.json: results[0].speedup: expected a positive number");
  EXPECT_EQ(
      errorFor(edited([](auto &J) { J["results"][0]["kernel_hash"] = "abc"; })),
      "c.json: results[0].kernel_hash: expected a SHA-256 in hex (64 "
      "digits)");
  EXPECT_EQ(errorFor(edited(
                [](auto &J) { J["results"][0]["steps"][0] = "restrict"; })),
            "c.json: results[0].steps[0]: in step 'restrict': expected "
            "'transform(site=...,param=value)'");
}

TEST(CacheFileTest, TheOriginalAsBestHasNoSteps) {
  ResultRecord R = saxpy();
  R.Steps = "";
  auto Back = parseCacheFile(cacheFileText({R}), "c.json");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->front().Steps, "");
}

} // namespace
