//===- EvaluationReportTest.cpp - rendering a recorded runner result -----===//
//
// The fixture is optiml-runner's result for saxpy against itself, recorded
// on an H200 (benchmarks/results/archive/2026-11-21-runner-h200.md): the
// report must read the runner's schema (docs/Runner.md) as it really is. It
// was recorded before results carried "schema_version"; the test adds it.
//
//===----------------------------------------------------------------------===//

#include "driver/Evaluate/EvaluationReport.h"
#include "optiml/Protocol/Document.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace optiml;

namespace {

Evaluation recorded() {
  auto Buf = llvm::MemoryBuffer::getFile(OPTIML_UNITTEST_INPUTS
                                         "/runner-result-saxpy-h200.json");
  EXPECT_TRUE(static_cast<bool>(Buf));
  protocol::Json J = protocol::Json::parse((*Buf)->getBuffer().str());
  J[protocol::SchemaVersionKey] = protocol::SchemaVersion;
  Evaluation E;
  E.Run.Status = "ok";
  E.Run.Result.emplace();
  auto Failed = protocol::decode(J, *E.Run.Result);
  EXPECT_FALSE(Failed) << Failed->what();
  E.Reference.Succeeded = E.Candidate.Succeeded = true;
  E.Reference.Usage = ResourceUsage{"_Z5saxpyifPKfPf", 16, 0, 0, 0, 0, 0};
  E.Candidate = E.Reference;
  return E;
}

std::string render(const Evaluation &E) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printEvaluation(E, "saxpy", OS);
  return Out;
}

TEST(EvaluationReportTest, RecordedSelfComparison) {
  Evaluation E = recorded();
  EXPECT_TRUE(E.accepted());
  std::string Out = render(E);
  EXPECT_NE(Out.find("kernel saxpy on NVIDIA H200: ACCEPTED (status ok)"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("verify:   PASS"), std::string::npos) << Out;
  EXPECT_NE(Out.find("reference     0.0614 ms  spread  0.99%  (100 reps)"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("speedup:  0.998x  (noise +/- 0.23%): within noise"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("dram__bytes_read.sum"), std::string::npos) << Out;
  EXPECT_NE(Out.find("16 registers"), std::string::npos) << Out;
}

TEST(EvaluationReportTest, SassMixIsShownWhenTheBuildHasOne) {
  Evaluation E = recorded();
  EXPECT_EQ(render(E).find("SASS"), std::string::npos);
  SassMix M;
  M.Function = "_Z5saxpyifPKfPf";
  M.Instructions = 19, M.Ffma = 1, M.Integer = 4;
  M.GlobalLoads.Bits32 = 2, M.GlobalStores.Bits32 = 1;
  E.Candidate.Sass = M;
  EXPECT_NE(render(E).find("SASS 19 instructions: 1 FFMA, 0 non-FFMA FP32, 4 "
                           "integer; global ld 2/0/0 st 1/0/0, shared ld "
                           "0/0/0 st 0/0/0 (32/64/128-bit); local ld/st 0/0"),
            std::string::npos)
      << render(E);
  nlohmann::json J = toJSON(E);
  EXPECT_EQ(J["build"]["candidate"]["sass"]["global_loads"]["32"], 2);
  EXPECT_TRUE(J["build"]["reference"]["sass"].is_null());
}

TEST(EvaluationReportTest, RejectedRunShowsItsError) {
  Evaluation E = recorded();
  E.Run.Status = "timeout";
  E.Run.Error = "the runner was killed after 40 s";
  EXPECT_FALSE(E.accepted());
  std::string Out = render(E);
  EXPECT_NE(Out.find("REJECTED (status timeout)"), std::string::npos) << Out;
  EXPECT_NE(Out.find("error:    the runner was killed after 40 s"),
            std::string::npos)
      << Out;
}

TEST(EvaluationReportTest, VerificationFailureIsNotAccepted) {
  Evaluation E = recorded();
  E.Run.Status = "verify_failed";
  protocol::VerifyReport &V = *E.Run.Result->Verify;
  V.Passed = false;
  protocol::Failure F;
  F.Kind = "mismatch";
  F.Buffer = "y";
  F.Index = 7;
  F.Expected = 1.5;
  F.Got = std::numeric_limits<double>::quiet_NaN();
  V.Failures = {F};
  EXPECT_FALSE(E.accepted());
  std::string Out = render(E);
  EXPECT_NE(Out.find("verify:   FAIL"), std::string::npos) << Out;
  EXPECT_NE(Out.find("\"kind\":\"mismatch\",\"buffer\":\"y\",\"index\":7,"
                     "\"expected\":1.5,\"got\":\"nan\""),
            std::string::npos)
      << Out;
}

TEST(EvaluationReportTest, BuildFailureShowsTheLogOfTheFailedSide) {
  Evaluation E;
  E.Run.Status = "build_failed";
  E.Reference.Succeeded = true;
  E.Candidate.Log = "cand.cu(3): error: identifier \"x\" is undefined";
  std::string Out = render(E);
  EXPECT_NE(Out.find("REJECTED (status build_failed)"), std::string::npos)
      << Out;
  EXPECT_NE(Out.find("log:\ncand.cu(3): error"), std::string::npos) << Out;
  EXPECT_EQ(Out.find("verify:"), std::string::npos) << Out; // Never ran.
  nlohmann::json J = toJSON(E);
  EXPECT_EQ(J["result"]["side"], "candidate");
  EXPECT_FALSE(J["accepted"].get<bool>());
}

TEST(EvaluationReportTest, JSONKeepsTheRunnersResult) {
  Evaluation E = recorded();
  E.Run.Log = "optiml-runner: done";
  nlohmann::json J = toJSON(E);
  EXPECT_EQ(J["status"], "ok");
  EXPECT_TRUE(J["accepted"].get<bool>());
  EXPECT_EQ(J["result"]["schema_version"], protocol::SchemaVersion);
  EXPECT_EQ(J["result"]["device"]["sms"], 132);
  EXPECT_EQ(J["result"]["timing"]["instances"][0]["reference"]["reps"], 100);
  EXPECT_EQ(J["result"]["runner_log"], "optiml-runner: done");
}

} // namespace
