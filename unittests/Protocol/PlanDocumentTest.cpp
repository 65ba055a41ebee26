//===- PlanDocumentTest.cpp - the plan as both ends read it ---------------===//
//
// The runner decodes plans with these functions, so what is tested here is
// what it accepts and the line it answers a bad plan with.
//
//===----------------------------------------------------------------------===//

#include "optiml/Protocol/Document.h"
#include "optiml/Protocol/RunPlan.h"

#include "gtest/gtest.h"

#include <limits>

using namespace optiml::protocol;

namespace {

/// A plan using every feature: both launch geometries, each distribution,
/// scalars of each representation at their extremes.
RunPlan fullPlan() {
  RunPlan P;
  P.Reference = "/c/ref.so";
  P.Candidate = "/c/cand.so";
  Instance I;
  I.Name = "large";
  I.Time = true;
  I.Geometry = {{4096, 2, 1}, {256, 1, 1}, 1024};
  I.CandidateGeometry = Launch{{2048, 2, 1}, {512, 1, 1}, 0};
  using K = Distribution::Kind;
  auto Buffer = [](const char *Name, ArgRole Role, ElemType T,
                   std::optional<Distribution> D) {
    Arg A;
    A.Name = Name, A.Role = Role, A.Type = T, A.Count = 1000, A.Dist = D;
    return A;
  };
  Distribution Uniform, Int, Normal, Index, Constant;
  Uniform.K = K::Uniform, Uniform.Lo = -0.5, Uniform.Hi = 0.25;
  Int.K = K::Int, Int.IntLo = -7, Int.IntHi = 9;
  Normal.K = K::Normal, Normal.Mean = 3, Normal.Std = 0.5;
  Index.K = K::Index, Index.Scale = 2, Index.Offset = -1, Index.Mod = 17;
  Constant.K = K::Constant, Constant.Value = 42;
  I.Args = {Buffer("a", ArgRole::In, ElemType::F32, Uniform),
            Buffer("b", ArgRole::In, ElemType::I16, Int),
            Buffer("c", ArgRole::InOut, ElemType::F64, Normal),
            Buffer("d", ArgRole::In, ElemType::U32, Index),
            Buffer("e", ArgRole::In, ElemType::U8, Constant),
            Buffer("out", ArgRole::Out, ElemType::F32, std::nullopt)};
  auto Scalar = [](const char *Name, ElemType T, ScalarValue V) {
    Arg A;
    A.Name = Name, A.Role = ArgRole::Scalar, A.Type = T, A.Value = V;
    return A;
  };
  I.Args.push_back(
      Scalar("u", ElemType::U64, std::numeric_limits<uint64_t>::max()));
  I.Args.push_back(
      Scalar("i", ElemType::I64, std::numeric_limits<int64_t>::min()));
  I.Args.push_back(Scalar("s", ElemType::I8, int64_t(-128)));
  I.Args.push_back(Scalar("x", ElemType::F32, 2.5));
  P.Instances = {I};
  Instance Small = I;
  Small.Name = "small";
  Small.Time = false;
  Small.CandidateGeometry.reset();
  P.Instances.push_back(Small);
  P.Seeds = {3, 5, 8};
  P.Tol = {1e-4, 1e-7, 1e-3};
  P.Timing = {1, 20, 40, 0.02, 4.5, false, 1.75};
  P.Metrics = true;
  P.MetricsMinSpeedup = 1.5;
  P.Energy = true;
  return P;
}

/// The message decoding \p Text fails with, or "" when it decodes.
std::string failure(const std::string &Text) {
  RunPlan P;
  auto Failed = decodeText(Text, P);
  return Failed ? Failed->what() : "";
}

/// fullPlan() as JSON, changed by \p Edit, then its decoding's message.
template <typename Fn> std::string failureAfter(Fn Edit) {
  Json J = fullPlan();
  Edit(J);
  return failure(J.dump());
}

TEST(PlanDocumentTest, RoundTripKeepsEveryField) {
  std::string Text = encode(fullPlan());
  RunPlan Back;
  auto Failed = decodeText(Text, Back);
  ASSERT_FALSE(Failed) << Failed->what();
  EXPECT_EQ(encode(Back), Text);
  const Instance &I = Back.Instances[0];
  EXPECT_EQ(I.Geometry.Grid, (std::array<unsigned, 3>{4096, 2, 1}));
  EXPECT_EQ(I.Geometry.Shmem, 1024u);
  ASSERT_TRUE(I.CandidateGeometry.has_value());
  EXPECT_EQ(I.launchOf(Side::Candidate).Block[0], 512u);
  EXPECT_FALSE(Back.Instances[1].CandidateGeometry.has_value());
  EXPECT_EQ(I.Args[1].Dist->IntLo, -7);
  EXPECT_EQ(I.Args[3].Dist->Mod, 17u);
  EXPECT_FALSE(I.Args[5].Dist.has_value());
  // 64-bit scalars come back exactly, not through a double.
  EXPECT_EQ(std::get<uint64_t>(I.Args[6].Value),
            std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(std::get<int64_t>(I.Args[7].Value),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(std::get<double>(I.Args[9].Value), 2.5);
  EXPECT_EQ(Back.Seeds, (std::vector<uint64_t>{3, 5, 8}));
  EXPECT_EQ(Back.Timing.MaxReps, 40u);
  EXPECT_FALSE(Back.Timing.FlushL2);
  EXPECT_DOUBLE_EQ(Back.Timing.ScreenBelow, 1.75);
  EXPECT_DOUBLE_EQ(Back.MetricsMinSpeedup, 1.5);
  EXPECT_TRUE(Back.Energy);
}

TEST(PlanDocumentTest, DefaultsForWhatIsLeftOut) {
  RunPlan P;
  auto Failed = decodeText(R"({
    // Comments are allowed in plans written by hand.
    "schema_version": 3, "reference": "/r.so",
    "instances": [{"name": "n", "grid": [8], "block": [128, 2],
      "args": [{"name": "a", "kind": "buffer", "role": "inout",
                "type": "i32", "count": 5},
               {"name": "b", "kind": "buffer", "role": "in",
                "type": "f64", "count": 5},
               {"name": "n", "kind": "scalar", "type": "i32",
                "value": 5.0}]}]})",
                           P);
  ASSERT_FALSE(Failed) << Failed->what();
  EXPECT_FALSE(P.hasCandidate());
  EXPECT_EQ(P.Seeds, (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(P.Timing.Warmup, 3u);
  EXPECT_EQ(P.Timing.MaxReps, 500u);
  EXPECT_TRUE(P.Timing.FlushL2);
  // Screening and the counters' threshold are off unless asked for.
  EXPECT_EQ(P.Timing.ScreenBelow, 0.0);
  EXPECT_EQ(P.MetricsMinSpeedup, 0.0);
  EXPECT_DOUBLE_EQ(P.Tol.Atol, 1e-6);
  const Instance &I = P.Instances[0];
  EXPECT_FALSE(I.Time);
  EXPECT_EQ(I.Geometry.Grid, (std::array<unsigned, 3>{8, 1, 1}));
  EXPECT_EQ(I.Geometry.Block, (std::array<unsigned, 3>{128, 2, 1}));
  // Without "dist": the integers 0 to 100, or uniform [-1, 1) for floats.
  EXPECT_EQ(I.Args[0].distributionAt(0).K, Distribution::Kind::Int);
  EXPECT_EQ(I.Args[0].distributionAt(0).IntHi, 100);
  EXPECT_EQ(I.Args[1].distributionAt(0).K, Distribution::Kind::Uniform);
  EXPECT_EQ(I.Args[1].bytes(), 40u);
  // An integral float is an integer (expression evaluators write 5.0).
  EXPECT_EQ(std::get<int64_t>(I.Args[2].Value), 5);
}

TEST(PlanDocumentTest, MissingKeysAreNamedWithTheirPath) {
  EXPECT_EQ(failureAfter([](Json &J) { J.erase("reference"); }),
            "reference: missing");
  EXPECT_EQ(failureAfter([](Json &J) { J["instances"].clear(); }),
            "instances: expected a non-empty array");
  EXPECT_EQ(failureAfter(
                [](Json &J) { J["instances"][0]["args"][1].erase("count"); }),
            "instances[0].args[1].count: missing");
  EXPECT_EQ(failureAfter(
                [](Json &J) { J["instances"][1]["args"][9].erase("value"); }),
            "instances[1].args[9].value: missing");
  EXPECT_EQ(failureAfter([](Json &J) { J["instances"][0].erase("grid"); }),
            "instances[0].grid: missing");
  EXPECT_EQ(failureAfter([](Json &J) {
              J["instances"][0]["args"][4]["dist"] = {{"kind", "constant"}};
            }),
            "instances[0].args[4].dist.value: missing");
}

TEST(PlanDocumentTest, MistypedAndInconsistentValuesAreNamed) {
  auto Arg0 = [](const char *Key, Json V) {
    return failureAfter(
        [&](Json &J) { J["instances"][0]["args"][0][Key] = V; });
  };
  EXPECT_EQ(Arg0("type", "f12"),
            "instances[0].args[0].type: unknown type 'f12' (expected f32 f64 "
            "i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f8e4m3 f8e5m2)");
  EXPECT_EQ(Arg0("count", "many"),
            "instances[0].args[0].count: expected a number");
  EXPECT_EQ(Arg0("count", -1),
            "instances[0].args[0].count: expected a non-negative integer");
  EXPECT_EQ(Arg0("count", 2.5),
            "instances[0].args[0].count: expected an integer");
  EXPECT_EQ(Arg0("count", 0), "instances[0].args[0].count: must be >= 1");
  EXPECT_EQ(
      Arg0("role", "scalar"),
      "instances[0].args[0].role: unknown role 'scalar' (in, out, inout)");
  EXPECT_EQ(Arg0("kind", "pointer"),
            "instances[0].args[0].kind: expected \"buffer\", \"scalar\", "
            "\"symbol\", \"extra\" or \"alias\"");
  EXPECT_EQ(Arg0("dist", Json({{"kind", "uniform"}, {"lo", 2}, {"hi", 1}})),
            "instances[0].args[0].dist: uniform needs lo <= hi");
  EXPECT_EQ(Arg0("dist", Json({{"kind", "beta"}})),
            "instances[0].args[0].dist.kind: unknown distribution 'beta' "
            "(uniform, int, normal, index, constant, offsets, permutation, "
            "sorted)");
  EXPECT_EQ(failureAfter(
                [](Json &J) { J["instances"][0]["args"][8]["value"] = 300; }),
            "instances[0].args[8].value: value 300 does not fit in i8");
  EXPECT_EQ(failureAfter([](Json &J) { J["instances"][0]["time"] = "yes"; }),
            "instances[0].time: expected true or false");
  EXPECT_EQ(
      failureAfter([](Json &J) { J["instances"][0]["grid"] = Json::array(); }),
      "instances[0].grid: expected an array of 1 to 3 positive integers");
  EXPECT_EQ(failureAfter([](Json &J) {
              J["instances"][0]["candidate_launch"]["block"][1] = 0;
            }),
            "instances[0].candidate_launch.block[1]: must be a positive 32-bit "
            "integer");
  EXPECT_EQ(failureAfter([](Json &J) { J["instances"][1]["name"] = "large"; }),
            "instances[1]: duplicate instance name 'large'");
  EXPECT_EQ(failureAfter([](Json &J) {
              J["instances"][0]["args"][5]["role"] = "in";
              J["instances"][0]["args"][2]["role"] = "in";
            }),
            "instances[0].args: no out or inout buffer: nothing to verify");
  EXPECT_EQ(failureAfter([](Json &J) { J["timing"]["max_reps"] = 5; }),
            "timing.max_reps: must be >= min_reps");
  EXPECT_EQ(failureAfter([](Json &J) { J["timing"]["screen_below"] = -1; }),
            "timing.screen_below: must be >= 0");
  EXPECT_EQ(failureAfter([](Json &J) { J["metrics_min_speedup"] = -0.5; }),
            "metrics_min_speedup: must be >= 0");
  EXPECT_EQ(failureAfter([](Json &J) { J["tolerance"]["rtol"] = -1; }),
            "tolerance: tolerances must be >= 0");
  EXPECT_EQ(failureAfter([](Json &J) { J["seeds"] = Json::array(); }),
            "seeds: expected a non-empty array");
  EXPECT_EQ(failure("[1, 2]"), "plan: expected an object");
  EXPECT_EQ(failure("{\"reference\": ").rfind("invalid JSON: ", 0), 0u);
}

/// A buffer of structs: lanes cycling through its fields, each with its type
/// and distribution, named as C names them.
TEST(PlanDocumentTest, FieldsOfVectorAndStructBuffers) {
  RunPlan P = fullPlan();
  Arg &A = P.Instances[0].Args[0];
  A.Count = 1000;
  Distribution Ten;
  Ten.Hi = 10;
  A.Fields = {{"t", ElemType::F32, Ten}, {"id", ElemType::I32, std::nullopt}};
  std::string Text = encode(P);
  RunPlan Back;
  auto Failed = decodeText(Text, Back);
  ASSERT_FALSE(Failed) << Failed->what();
  EXPECT_EQ(encode(Back), Text);
  const Arg &B = Back.Instances[0].Args[0];
  ASSERT_EQ(B.Fields.size(), 2u);
  EXPECT_EQ(B.typeAt(0), ElemType::F32);
  EXPECT_EQ(B.typeAt(7), ElemType::I32);
  EXPECT_FALSE(B.uniform());
  EXPECT_TRUE(B.anyFloat());
  EXPECT_EQ(B.distributionAt(2).Hi, 10);
  EXPECT_EQ(B.distributionAt(3).Lo, -0.5); // The buffer's own.
  EXPECT_EQ(B.laneName(7), "[3].id");
  EXPECT_EQ(Back.Instances[0].Args[1].laneName(7), "[7]");

  auto Fields = [](Json V) {
    return failureAfter([&](Json &J) {
      J["instances"][0]["args"][0]["count"] = 1000;
      J["instances"][0]["args"][0]["fields"] = V;
    });
  };
  EXPECT_EQ(Fields(Json::array({{{"name", "x"}, {"type", "f64"}}})),
            "instances[0].args[0].fields[0].type: must be the buffer's type");
  EXPECT_EQ(Fields(Json::array({{{"name", "x"}, {"type", "f32"}},
                                {{"name", "y"}, {"type", "f16"}}})),
            "instances[0].args[0].fields[1].type: every field must have the "
            "size of the buffer's type");
  EXPECT_EQ(Fields(Json::array({{{"name", "x"}, {"type", "f32"}},
                                {{"name", "y"}, {"type", "f32"}},
                                {{"name", "z"}, {"type", "f32"}}})),
            "instances[0].args[0].count: must be a multiple of the number of "
            "fields");
  EXPECT_EQ(Fields(Json::array({{{"name", ""}, {"type", "f32"}}})),
            "instances[0].args[0].fields[0].name: empty field name");
}

/// fullPlan() whose first instance is a sequence: the kernel, then its
/// companion "total" on the out buffer and an extra buffer, twice, with
/// the candidate's own geometry for the kernel.
RunPlan sequencePlan() {
  RunPlan P = fullPlan();
  P.Companions = {"total"};
  Instance &I = P.Instances[0];
  Arg Sum;
  Sum.Name = "sum", Sum.Role = ArgRole::Out, Sum.Type = ElemType::F32;
  Sum.Count = 1, Sum.Extra = true;
  I.Args.push_back(Sum);
  for (int Rep = 0; Rep < 2; ++Rep) {
    Step Own;
    Own.Geometry = I.Geometry;
    Own.Cooperative = true;
    Own.Args.push_back(StepArg{size_t(0), false, ElemType::I32, int64_t(0)});
    Own.Args.push_back(StepArg{std::nullopt, true, ElemType::I32, int64_t(0)});
    Own.Args.push_back(
        StepArg{std::nullopt, false, ElemType::I8, int64_t(-3 - Rep)});
    Step Total;
    Total.Kernel = 1;
    Total.Args.push_back(StepArg{size_t(5), false, ElemType::I32, int64_t(0)});
    Total.Args.push_back(StepArg{size_t(10), false, ElemType::I32, int64_t(0)});
    Total.Args.push_back(StepArg{std::nullopt, false, ElemType::F32, 0.5});
    I.Sequence.push_back(Own);
    I.Sequence.push_back(Total);
  }
  I.CandidateSequence = I.Sequence;
  I.CandidateSequence->front().Geometry.Grid[0] = 7;
  return P;
}

TEST(PlanDocumentTest, SequenceRoundTrip) {
  std::string Text = encode(sequencePlan());
  RunPlan Back;
  auto Failed = decodeText(Text, Back);
  ASSERT_FALSE(Failed) << Failed->what();
  EXPECT_EQ(encode(Back), Text);
  EXPECT_EQ(Back.Companions, std::vector<std::string>{"total"});
  const Instance &I = Back.Instances[0];
  ASSERT_EQ(I.Sequence.size(), 4u);
  EXPECT_TRUE(I.Args.back().Extra);
  EXPECT_FALSE(I.Args.back().isParameter());
  EXPECT_TRUE(I.Sequence[0].Cooperative);
  EXPECT_TRUE(I.Sequence[0].Args[1].Null);
  EXPECT_EQ(std::get<int64_t>(I.Sequence[2].Args[2].Value), -4);
  EXPECT_EQ(I.Sequence[1].Kernel, 1u);
  EXPECT_EQ(*I.Sequence[1].Args[1].Buffer, 10u);
  EXPECT_EQ(I.sequenceOf(Side::Candidate)[0].Geometry.Grid[0], 7u);
  EXPECT_EQ(I.sequenceOf(Side::Reference)[0].Geometry.Grid[0], 4096u);
  EXPECT_TRUE(Back.Instances[1].Sequence.empty());
}

TEST(PlanDocumentTest, SequenceErrorsAreNamed) {
  auto After = [](auto Edit) {
    Json J = sequencePlan();
    Edit(J);
    return failure(J.dump());
  };
  EXPECT_EQ(After([](Json &J) {
              J["instances"][0]["sequence"][1]["args"][0]["buffer"] = 6;
            }),
            "instances[0].sequence[1].args[0].buffer: must be the index of a "
            "buffer of the instance");
  EXPECT_EQ(
      After([](Json &J) { J["instances"][0]["sequence"][1]["kernel"] = 2; }),
      "instances[0].sequence[1].kernel: no such kernel: the plan has 1 "
      "companion(s)");
  EXPECT_EQ(After([](Json &J) {
              J["instances"][0]["sequence"][0]["args"][2].erase("value");
            }),
            "instances[0].sequence[0].args[2].value: missing: a step's "
            "argument is a buffer, null or a value");
  EXPECT_EQ(After([](Json &J) {
              J["instances"][0]["sequence"][0]["args"][2]["value"] = 300;
            }),
            "instances[0].sequence[0].args[2].value: value 300 does not fit "
            "in i8");
  EXPECT_EQ(After([](Json &J) { J["instances"][0].erase("sequence"); }),
            "instances[0].candidate_sequence: given without a sequence");
  EXPECT_EQ(After([](Json &J) {
              J["instances"][0].erase("sequence");
              J["instances"][0].erase("candidate_sequence");
            }),
            "instances[0].args[10]: an extra buffer without a sequence to "
            "take it");
}

TEST(PlanDocumentTest, AnotherSchemaVersionIsRefused) {
  Json J = fullPlan();
  J["schema_version"] = SchemaVersion + 1;
  RunPlan P;
  auto Failed = decode(J, P);
  ASSERT_TRUE(Failed);
  EXPECT_EQ(Failed->kind(), ProtocolError::Kind::VersionMismatch);
  EXPECT_EQ(std::string(Failed->what()),
            "schema_version: the plan has version " +
                std::to_string(SchemaVersion + 1) +
                ", this build of OptiML reads version " +
                std::to_string(SchemaVersion));
  J.erase("schema_version");
  Failed = decode(J, P);
  ASSERT_TRUE(Failed);
  EXPECT_EQ(Failed->kind(), ProtocolError::Kind::VersionMismatch);
  EXPECT_EQ(Failed->path(), "schema_version");
  // A malformed plan of the right version is not a version problem.
  J = fullPlan();
  J.erase("reference");
  Failed = decode(J, P);
  ASSERT_TRUE(Failed);
  EXPECT_EQ(Failed->kind(), ProtocolError::Kind::Malformed);
}

TEST(PlanDocumentTest, ProfiledInstancesAreTheTimedOnesOrTheFirst) {
  RunPlan P = fullPlan();
  ASSERT_EQ(profiledInstances(P).size(), 1u);
  EXPECT_EQ(profiledInstances(P)[0]->Name, "large");
  P.Instances[0].Time = false;
  ASSERT_EQ(profiledInstances(P).size(), 1u);
  EXPECT_EQ(profiledInstances(P)[0]->Name, "large");
}

} // namespace
