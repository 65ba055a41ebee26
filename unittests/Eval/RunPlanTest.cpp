//===- RunPlanTest.cpp - the runner's plan document ----------------------===//

#include "optiml/Eval/RunPlan.h"

#include "gtest/gtest.h"

using namespace optiml;

TEST(RunPlanTest, NumbersOnlyInRunnerSchema) {
  KernelSpec Spec;
  Spec.Kernel = "saxpy";
  Spec.RTol = 1e-4;
  Spec.Seeds = {7, 8};
  ConcreteInstance Big;
  Big.Name = "default";
  Big.Time = true;
  Big.Grid = {4096, 1, 1};
  Big.Block = {256, 1, 1};
  ConcreteArg N{"n", ArgRole::Scalar, "i32", 0, 1048576, std::nullopt};
  ConcreteArg X{"x",   ArgRole::In,
                "f32", 1048576,
                0,     Distribution{"uniform", -2, 3, std::nullopt}};
  ConcreteArg Y{"y", ArgRole::InOut, "f32", 1048576, 0, std::nullopt};
  Big.Args = {N, X, Y};
  ConcreteInstance Odd = Big;
  Odd.Name = "odd";
  Odd.Time = false;

  MeasureOptions O;
  O.Metrics = true;
  nlohmann::json P =
      makeRunPlan(Spec, {Big, Odd}, "/c/ref.so", "/c/cand.so", O);
  EXPECT_EQ(P["reference"], "/c/ref.so");
  EXPECT_EQ(P["candidate"], "/c/cand.so");
  EXPECT_EQ(P["seeds"], nlohmann::json({7, 8}));
  EXPECT_DOUBLE_EQ(P["tolerance"]["rtol"].get<double>(), 1e-4);
  EXPECT_EQ(P["metrics"], true);
  ASSERT_EQ(P["instances"].size(), 2u);
  const nlohmann::json &I = P["instances"][0];
  EXPECT_EQ(I["time"], true);
  EXPECT_EQ(I["grid"], nlohmann::json({4096, 1, 1}));
  EXPECT_EQ(I["args"][0], nlohmann::json({{"name", "n"},
                                          {"type", "i32"},
                                          {"kind", "scalar"},
                                          {"value", 1048576.0}}));
  EXPECT_EQ(I["args"][1]["role"], "in");
  EXPECT_EQ(I["args"][1]["count"], 1048576);
  EXPECT_EQ(I["args"][1]["dist"],
            nlohmann::json({{"kind", "uniform"}, {"lo", -2.0}, {"hi", 3.0}}));
  EXPECT_FALSE(I["args"][2].contains("dist"));
  EXPECT_EQ(P["instances"][1]["time"], false);
}

TEST(RunPlanTest, SelfComparisonHasNoCandidate) {
  KernelSpec Spec;
  nlohmann::json P = makeRunPlan(Spec, {}, "/c/ref.so", "", MeasureOptions());
  EXPECT_FALSE(P.contains("candidate"));
}

TEST(RunPlanTest, CandidateKeepsItsOwnLaunchGeometry) {
  KernelSpec Spec;
  ConcreteInstance Ref;
  Ref.Name = "default";
  Ref.Grid = {65536, 1, 1};
  Ref.Block = {256, 1, 1};
  ConcreteInstance Cand = Ref;
  Cand.Grid = {32768, 1, 1};
  Cand.Block = {512, 1, 1};
  std::vector<ConcreteInstance> CandInstances = {Cand};
  nlohmann::json P = makeRunPlan(Spec, {Ref}, "/r.so", "/c.so",
                                 MeasureOptions(), &CandInstances);
  const nlohmann::json &I = P["instances"][0];
  EXPECT_EQ(I["block"], nlohmann::json({256, 1, 1}));
  EXPECT_EQ(I["candidate_launch"]["grid"], nlohmann::json({32768, 1, 1}));
  EXPECT_EQ(I["candidate_launch"]["block"], nlohmann::json({512, 1, 1}));

  // Same geometry: nothing extra.
  std::vector<ConcreteInstance> Same = {Ref};
  nlohmann::json Q =
      makeRunPlan(Spec, {Ref}, "/r.so", "/c.so", MeasureOptions(), &Same);
  EXPECT_FALSE(Q["instances"][0].contains("candidate_launch"));
}
