//===- ResultDocumentTest.cpp - the result as both ends read it -----------===//
//
// The runner writes results with these functions and the tool reads them
// back once; a result recorded on an H200 checks that the decoder reads the
// runner's real output.
//
//===----------------------------------------------------------------------===//

#include "optiml/Protocol/Document.h"
#include "optiml/Protocol/RunResult.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <cmath>

using namespace optiml::protocol;

namespace {

Json recordedJson() {
  auto Buf = llvm::MemoryBuffer::getFile(OPTIML_UNITTEST_INPUTS
                                         "/runner-result-saxpy-h200.json");
  EXPECT_TRUE(static_cast<bool>(Buf));
  return Json::parse((*Buf)->getBuffer().str());
}

/// A result using every part: failures with each kind of value, both forms
/// of metrics sides, energy with a failed side, two timed instances.
RunResult fullResult() {
  RunResult R;
  R.Status = RunStatus::VerifyFailed;
  R.Error = "3 verification failure(s)";
  R.Phase = "done";
  R.Libraries = LibrariesReport{{"/r.so", "saxpy"}, {"/c.so", "saxpy_v2"}};
  R.Device.emplace();
  R.Device->Name = "NVIDIA H200";
  R.Device->Sms = 132;
  R.Device->L2Bytes = 62914560;
  R.Device->Peaks.DramBytesPerS = 4.8e12;
  R.Device->Peaks.Fp32LanesPerSm = 128;
  VerifyReport &V = R.Verify.emplace();
  V.Seeds = {1, 2};
  SeedVerification Seed;
  Seed.Seed = 1;
  Seed.Reference = SideCounts{0, 0, 0, 0};
  Seed.Candidate = SideCounts{2, 1, 16, 0};
  Seed.Comparison = "skipped: the reference failed its own checks";
  SeedVerification Cut; // The run ended before the candidate ran.
  Cut.Seed = 2;
  Cut.Reference = SideCounts{};
  V.Instances = {{"small", false, {Seed, Cut}}};
  Failure Left;
  Left.Instance = "small", Left.Seed = 1, Left.Kind = "redzone";
  Left.Buffer = "c", Left.Index = -3;
  Left.Expected = std::string("0xde"), Left.Got = std::string("0x00");
  Failure Nan = Left;
  Nan.Kind = "nan", Nan.Index = 7;
  Nan.Expected = 1.5, Nan.Got = std::nan("");
  Failure Ints = Left;
  Ints.Kind = "mismatch", Ints.Index = 0;
  Ints.Expected = int64_t(-5), Ints.Got = uint64_t(18446744073709551615u);
  Failure Fault;
  Fault.Instance = "small", Fault.Where = Side::Reference;
  Fault.Kind = "fault", Fault.Message = "illegal address";
  V.Failures = {Left, Nan, Ints, Fault};
  V.FailuresTotal = 9;
  InstanceTiming A, B;
  A.Instance = "large", A.Speedup = 1.2, A.StopReason = "converged";
  A.SpeedupLow = 1.18, A.SpeedupHigh = 1.22;
  A.Reference.MedianNs = 120, A.Candidate.MedianNs = 100;
  A.Candidate.Reps = 40, A.L2FlushBytes = 125829120;
  B = A;
  B.Instance = "huge", B.Speedup = 1.1;
  R.Timing = TimingReport{{A, B}};
  MetricsReport &M = R.Metrics.emplace();
  M.Api = "CUPTI Range Profiler";
  M.Chip = "GH100";
  M.Unsupported = std::vector<std::string>{"smsp__x.sum"};
  InstanceMetrics IM;
  IM.Instance = "large";
  IM.Reference =
      SideMetrics{"SASS metrics refused", {{"dram__bytes_read.sum", 1e6}}, 11};
  M.Instances = std::vector<InstanceMetrics>{IM};
  M.Error = "profiling stopped";
  EnergyReport &E = R.Energy.emplace();
  E.Available = true;
  E.Method = "nvml";
  InstanceEnergy IE;
  IE.Instance = "large";
  IE.Reference = SideEnergy{std::nullopt, 4096, 1.5, 30, 30.0 / 4096, 20};
  IE.Candidate = SideEnergy{std::string("NVML_ERROR_NOT_SUPPORTED")};
  E.Instances = {IE};
  R.Log = {"no candidate"};
  R.Stages = {{"load", 0.01}, {"verify", 0.5}, {"time", 2.25}};
  return R;
}

std::string failureAfter(void (*Edit)(Json &)) {
  Json J = fullResult();
  Edit(J);
  RunResult R;
  auto Failed = decode(J, R);
  return Failed ? Failed->what() : "";
}

TEST(ResultDocumentTest, ReadsTheRunnersRecordedOutput) {
  Json J = recordedJson();
  RunResult R;
  // Recorded before results carried a version: refused, with one line.
  auto Failed = decode(J, R);
  ASSERT_TRUE(Failed);
  EXPECT_EQ(Failed->kind(), ProtocolError::Kind::VersionMismatch);
  EXPECT_EQ(std::string(Failed->what()),
            "schema_version: missing: the result comes from an older OptiML; "
            "this build of OptiML reads version " +
                std::to_string(SchemaVersion));
  J[SchemaVersionKey] = SchemaVersion;
  Failed = decode(J, R);
  ASSERT_FALSE(Failed) << Failed->what();
  EXPECT_TRUE(R.verified());
  EXPECT_EQ(R.Phase, "done");
  ASSERT_TRUE(R.Device.has_value());
  EXPECT_EQ(R.Device->Name, "NVIDIA H200");
  EXPECT_EQ(R.Device->Peaks.Fp32LanesPerSm, 128);
  ASSERT_NE(R.firstTiming(), nullptr);
  EXPECT_EQ(R.firstTiming()->Instance, "default");
  EXPECT_EQ(R.firstTiming()->Reference.Reps, 100u);
  EXPECT_NEAR(R.firstTiming()->Speedup, 0.99844, 1e-5);
  ASSERT_TRUE(R.Metrics && R.Metrics->Instances);
  EXPECT_FALSE(R.Metrics->Error.has_value());
  const auto &Cand = (*R.Metrics->Instances)[0].of(Side::Candidate);
  ASSERT_TRUE(Cand.has_value());
  EXPECT_EQ(Cand->Values.at("gpu__time_duration.sum"), 62272.0);
  EXPECT_FALSE(R.Energy.has_value());
  EXPECT_EQ(R.Verify->Instances[0].Seeds.size(), 2u);
  // Written again, it says the same, in the order the runner writes.
  Json Again = R;
  Again.erase(SchemaVersionKey);
  J.erase(SchemaVersionKey);
  EXPECT_EQ(nlohmann::json(Again), nlohmann::json(J));
}

TEST(ResultDocumentTest, RoundTripKeepsEveryField) {
  std::string Text = encode(fullResult());
  RunResult Back;
  auto Failed = decodeText(Text, Back);
  ASSERT_FALSE(Failed) << Failed->what();
  EXPECT_EQ(encode(Back), Text);
  EXPECT_EQ(Back.Status, RunStatus::VerifyFailed);
  const VerifyReport &V = *Back.Verify;
  EXPECT_FALSE(V.Instances[0].Seeds[1].Candidate.has_value());
  EXPECT_FALSE(V.Instances[0].Seeds[1].Buffers.has_value());
  EXPECT_EQ(V.Instances[0].Seeds[0].Candidate->RedZoneDamagedBytes, 16u);
  // A left red zone is a negative index, not "no index".
  EXPECT_EQ(V.Failures[0].Index, -3);
  EXPECT_EQ(std::get<std::string>(V.Failures[0].Expected), "0xde");
  EXPECT_TRUE(std::isnan(std::get<double>(V.Failures[1].Got)));
  EXPECT_EQ(std::get<int64_t>(V.Failures[2].Expected), -5);
  EXPECT_EQ(std::get<uint64_t>(V.Failures[2].Got), 18446744073709551615u);
  EXPECT_FALSE(V.Failures[3].Buffer.has_value());
  EXPECT_FALSE(V.Failures[3].Index.has_value());
  EXPECT_TRUE(std::holds_alternative<std::monostate>(V.Failures[3].Got));
  EXPECT_EQ(V.Failures[3].Where, Side::Reference);
  EXPECT_EQ(Back.Timing->Instances[1].Instance, "huge");
  EXPECT_EQ(Back.Timing->Instances[0].SpeedupLow, 1.18);
  EXPECT_EQ(Back.Timing->Instances[0].SpeedupHigh, 1.22);
  EXPECT_EQ(Back.Stages.at("time"), 2.25);
  EXPECT_EQ(Back.Stages.size(), 3u);
  EXPECT_EQ(Back.Metrics->Error, "profiling stopped");
  const InstanceMetrics &IM = (*Back.Metrics->Instances)[0];
  EXPECT_EQ(IM.Reference->SassMetricsDropped, "SASS metrics refused");
  EXPECT_FALSE(IM.Candidate.has_value());
  EXPECT_EQ(Back.Energy->Instances[0].Candidate.Error,
            "NVML_ERROR_NOT_SUPPORTED");
  EXPECT_EQ(Back.Energy->Instances[0].Reference.Launches, 4096u);
}

TEST(ResultDocumentTest, KeysComeInTheDocumentedOrder) {
  Json J = fullResult();
  std::vector<std::string> Keys;
  for (auto It = J.begin(); It != J.end(); ++It)
    Keys.push_back(It.key());
  EXPECT_EQ(Keys, (std::vector<std::string>{"schema_version", "status", "error",
                                            "phase", "libraries", "device",
                                            "verify", "timing", "metrics",
                                            "energy", "log", "stages"}));
  // The first timed instance is also at the top of "timing".
  EXPECT_EQ(J["timing"]["instance"], "large");
  EXPECT_EQ(J["timing"]["speedup"], 1.2);
  EXPECT_EQ(J["timing"]["instances"].size(), 2u);
  // Values JSON cannot hold are spelled out.
  EXPECT_EQ(J["verify"]["failures"][1]["got"], "nan");
  // A part not reached is null.
  J = RunResult();
  EXPECT_TRUE(J["verify"].is_null());
  EXPECT_EQ(J["status"], "incomplete");
  EXPECT_EQ(J["phase"], "start");
}

TEST(ResultDocumentTest, AKilledRunnersResultDecodes) {
  RunResult Partial;
  Partial.Phase = "verify small seed 1 candidate run 1/2";
  Partial.Libraries = LibrariesReport{{"/r.so", "k"}, {"/c.so", "k"}};
  RunResult Back;
  ASSERT_FALSE(decodeText(encode(Partial), Back));
  EXPECT_EQ(Back.Status, RunStatus::Incomplete);
  EXPECT_EQ(Back.Phase, Partial.Phase);
  EXPECT_FALSE(Back.Verify.has_value());
  EXPECT_FALSE(Back.verified());
  EXPECT_EQ(Back.firstTiming(), nullptr);
}

TEST(ResultDocumentTest, MissingAndMistypedKeysAreNamed) {
  EXPECT_EQ(failureAfter([](Json &J) { J.erase("status"); }),
            "status: missing");
  EXPECT_EQ(failureAfter([](Json &J) { J["status"] = "fine"; }),
            "status: unknown status 'fine'");
  EXPECT_EQ(failureAfter(
                [](Json &J) { J["timing"]["instances"][1].erase("speedup"); }),
            "timing.instances[1].speedup: missing");
  EXPECT_EQ(failureAfter([](Json &J) { J["device"]["sms"] = "many"; }),
            "device.sms: expected a number");
  EXPECT_EQ(failureAfter(
                [](Json &J) { J["verify"]["failures"][0]["side"] = "left"; }),
            "verify.failures[0].side: expected \"reference\" or \"candidate\"");
  EXPECT_EQ(failureAfter([](Json &J) {
              J["metrics"]["instances"][0]["reference"]["values"]["x"] = true;
            }),
            "metrics.instances[0].reference.values.x: expected a number");
  EXPECT_EQ(failureAfter([](Json &J) { J["log"] = "one line"; }),
            "log: expected an array");
  EXPECT_EQ(failureAfter([](Json &J) {
              J["energy"]["instances"][0].erase("reference");
            }),
            "energy.instances[0].reference: missing");
  RunResult R;
  EXPECT_EQ(std::string(decodeText("[]", R)->what()),
            "result: expected an object");
}

} // namespace
