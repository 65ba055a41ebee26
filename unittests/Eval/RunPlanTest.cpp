//===- RunPlanTest.cpp - the runner's plan from a kernel spec ------------===//

#include "optiml/Eval/RunPlan.h"
#include "optiml/Protocol/Document.h"

#include "gtest/gtest.h"

using namespace optiml;
using protocol::ElemType;
using protocol::Json;

namespace {

ConcreteInstance saxpyInstance() {
  ConcreteInstance Big;
  Big.Name = "default";
  Big.Time = true;
  Big.Grid = {4096, 1, 1};
  Big.Block = {256, 1, 1};
  ConcreteArg N{"n", ArgRole::Scalar, ElemType::I32, 0, 1048576, std::nullopt};
  ConcreteArg X{
      "x",     ArgRole::In, ElemType::F32,
      1048576, 0,           Distribution{"uniform", -2, 3, std::nullopt}};
  ConcreteArg Y{"y", ArgRole::InOut, ElemType::F32, 1048576, 0, std::nullopt};
  Big.Args = {N, X, Y};
  return Big;
}

TEST(RunPlanTest, NumbersOnlyInRunnerSchema) {
  KernelSpec Spec;
  Spec.Kernel = "saxpy";
  Spec.RTol = 1e-4;
  Spec.Seeds = {7, 8};
  ConcreteInstance Big = saxpyInstance();
  ConcreteInstance Odd = Big;
  Odd.Name = "odd";
  Odd.Time = false;

  MeasureOptions O;
  O.Metrics = true;
  O.MaxReps = 200;
  protocol::RunPlan P = llvm::cantFail(
      makeRunPlan(Spec, {Big, Odd}, "/c/ref.so", "/c/cand.so", O));
  EXPECT_EQ(P.Reference, "/c/ref.so");
  EXPECT_EQ(P.Candidate, "/c/cand.so");
  EXPECT_EQ(P.Seeds, (std::vector<uint64_t>{7, 8}));
  EXPECT_DOUBLE_EQ(P.Tol.Rtol, 1e-4);
  EXPECT_TRUE(P.Metrics);
  EXPECT_FALSE(P.Energy);
  EXPECT_EQ(P.Timing.MaxReps, 200u);
  EXPECT_EQ(P.Timing.MinReps, 10u); // The protocol's default.
  ASSERT_EQ(P.Instances.size(), 2u);
  const protocol::Instance &I = P.Instances[0];
  EXPECT_TRUE(I.Time);
  EXPECT_EQ(I.Geometry.Grid, (std::array<unsigned, 3>{4096, 1, 1}));
  EXPECT_FALSE(P.Instances[1].Time);

  // As the runner reads it: an integer scalar is written as an integer.
  Json J = P;
  const Json &Args = J["instances"][0]["args"];
  EXPECT_EQ(Args[0], Json({{"name", "n"},
                           {"kind", "scalar"},
                           {"type", "i32"},
                           {"value", 1048576}}));
  EXPECT_TRUE(Args[0]["value"].is_number_integer());
  EXPECT_EQ(Args[1]["role"], "in");
  EXPECT_EQ(Args[1]["count"], 1048576);
  EXPECT_EQ(Args[1]["dist"],
            Json({{"kind", "uniform"}, {"lo", -2.0}, {"hi", 3.0}}));
  EXPECT_FALSE(Args[2].contains("dist"));
  EXPECT_EQ(J["schema_version"], protocol::SchemaVersion);
  EXPECT_EQ(J["timing"]["max_reps"], 200);
}

TEST(RunPlanTest, DistributionsKeepTheirNamedParameters) {
  KernelSpec Spec;
  ConcreteInstance I = saxpyInstance();
  I.Args[1].Dist = Distribution{"int", 0, 9, std::nullopt};
  I.Args[2].Dist = Distribution{"index", 0.5, 1, 1000.0};
  protocol::RunPlan P =
      llvm::cantFail(makeRunPlan(Spec, {I}, "/r.so", "", MeasureOptions()));
  const protocol::Distribution &Int = *P.Instances[0].Args[1].Dist;
  EXPECT_EQ(Int.K, protocol::Distribution::Kind::Int);
  EXPECT_EQ(Int.IntLo, 0);
  EXPECT_EQ(Int.IntHi, 9);
  const protocol::Distribution &Index = *P.Instances[0].Args[2].Dist;
  EXPECT_EQ(Index.K, protocol::Distribution::Kind::Index);
  EXPECT_DOUBLE_EQ(Index.Scale, 0.5);
  EXPECT_DOUBLE_EQ(Index.Offset, 1);
  EXPECT_EQ(Index.Mod, 1000u);
  // And the runner decodes what the tool wrote.
  protocol::RunPlan Back;
  auto Failed = protocol::decodeText(protocol::encode(P), Back);
  ASSERT_FALSE(Failed) << Failed->what();
  EXPECT_EQ(Back.Instances[0].Args[2].Dist->Mod, 1000u);
  EXPECT_EQ(std::get<int64_t>(Back.Instances[0].Args[0].Value), 1048576);
}

TEST(RunPlanTest, SelfComparisonHasNoCandidate) {
  KernelSpec Spec;
  protocol::RunPlan P =
      llvm::cantFail(makeRunPlan(Spec, {}, "/c/ref.so", "", MeasureOptions()));
  EXPECT_FALSE(P.hasCandidate());
  EXPECT_FALSE(Json(P).contains("candidate"));
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
  protocol::RunPlan P = llvm::cantFail(makeRunPlan(
      Spec, {Ref}, "/r.so", "/c.so", MeasureOptions(), &CandInstances));
  const protocol::Instance &I = P.Instances[0];
  EXPECT_EQ(I.Geometry.Block, (std::array<unsigned, 3>{256, 1, 1}));
  ASSERT_TRUE(I.CandidateGeometry.has_value());
  EXPECT_EQ(I.launchOf(protocol::Side::Candidate).Grid,
            (std::array<unsigned, 3>{32768, 1, 1}));
  EXPECT_EQ(I.launchOf(protocol::Side::Reference).Grid,
            (std::array<unsigned, 3>{65536, 1, 1}));
  EXPECT_EQ(Json(P)["instances"][0]["candidate_launch"]["block"],
            Json({512, 1, 1}));

  // Same geometry: nothing extra.
  std::vector<ConcreteInstance> Same = {Ref};
  protocol::RunPlan Q = llvm::cantFail(
      makeRunPlan(Spec, {Ref}, "/r.so", "/c.so", MeasureOptions(), &Same));
  EXPECT_FALSE(Q.Instances[0].CandidateGeometry.has_value());
  EXPECT_FALSE(Json(Q)["instances"][0].contains("candidate_launch"));
}

TEST(RunPlanTest, SharedMemoryBeyond32BitsIsRefused) {
  KernelSpec Spec;
  ConcreteInstance I = saxpyInstance();
  I.SharedMemory = int64_t(1) << 33;
  auto P = makeRunPlan(Spec, {I}, "/r.so", "", MeasureOptions());
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "instance 'default' asks for 8589934592 bytes of shared memory, "
            "more than 32 bits hold");
}

} // namespace
