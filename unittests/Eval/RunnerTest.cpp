//===- RunnerTest.cpp - the runner's result, decoded once by the tool -----===//
//
// A stand-in runtime folder whose "runner" is a shell script: it keeps the
// plan it was given and writes a prepared result, so the tool's side of the
// protocol (writing the plan, decoding the result once, telling a killed or
// silent runner from a wrong one) runs without a GPU.
//
//===----------------------------------------------------------------------===//

#include "optiml/Eval/Runner.h"
#include "optiml/Protocol/Document.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"
#include "optiml/Support/Subprocess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <cstdlib>
#include <thread>

using namespace optiml;

namespace {

constexpr const char *FakeCMake = R"(cmake_minimum_required(VERSION 3.18)
project(FakeRunner NONE)
file(COPY "${CMAKE_CURRENT_SOURCE_DIR}/optiml-runner"
     DESTINATION "${CMAKE_BINARY_DIR}"
     FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
add_custom_target(optiml-runner)
)";

/// --plan P --out R: keeps the plan, writes the prepared result (if any)
/// before sleeping, so a killed run still leaves one, then exits as told.
/// --serve REQUESTS: does the same for each "<plan>\t<out>" line appended
/// to REQUESTS, between "serving N" and "served N exit C" lines, with files
/// of $OPTIML_FAKE_RUNNER_DIR saying what the next plan does: "gpuwait"
/// (seconds before "serving", as while another runner holds the GPU),
/// "sleep" (seconds), "crash" (kill -9 itself), "exit" (leave with that code
/// before answering, as after a fault). Each answer names the process.
constexpr const char *FakeRunner = R"SH(#!/bin/sh
D="$OPTIML_FAKE_RUNNER_DIR"
if [ "$1" = "--serve" ]; then
  n=0
  while :; do
    line=$(sed -n "$((n + 1))p" "$2")
    if [ -z "$line" ]; then sleep 0.01; continue; fi
    [ "$line" = quit ] && exit 0
    n=$((n + 1))
    if [ -f "$D/gpuwait" ]; then sleep "$(cat "$D/gpuwait")"; fi
    echo "optiml-runner: serving $n" >&2
    plan=$(printf '%s' "$line" | cut -f1)
    out=$(printf '%s' "$line" | cut -f2)
    cp "$plan" "$D/plan.json"
    if [ -f "$D/result.json" ]; then cp "$D/result.json" "$out"; fi
    echo "optiml-runner: fake $n of process $$ on GPU ${CUDA_VISIBLE_DEVICES:-all}" >&2
    if [ -f "$D/sleep" ]; then sleep "$(cat "$D/sleep")"; fi
    if [ -f "$D/crash" ]; then rm "$D/crash"; kill -9 $$; fi
    if [ -f "$D/exit" ]; then code=$(cat "$D/exit"); rm "$D/exit"; exit "$code"; fi
    echo "optiml-runner: served $n exit ${OPTIML_FAKE_RUNNER_EXIT:-0}" >&2
  done
fi
cp "$2" "$OPTIML_FAKE_RUNNER_DIR/plan.json"
if [ -f "$OPTIML_FAKE_RUNNER_DIR/result.json" ]; then
  cp "$OPTIML_FAKE_RUNNER_DIR/result.json" "$4"
fi
echo "optiml-runner: fake"
if [ -n "$OPTIML_FAKE_RUNNER_SLEEP" ]; then sleep "$OPTIML_FAKE_RUNNER_SLEEP"; fi
exit "${OPTIML_FAKE_RUNNER_EXIT:-0}"
)SH";

class RunnerTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (findProgram("cmake").empty())
      GTEST_SKIP() << "cmake not found";
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-runner", Dir));
    write("runtime/CMakeLists.txt", FakeCMake);
    write("runtime/optiml-runner", FakeRunner);
    write("include/optiml/Protocol/RunPlan.h", "// stand-in\n");
    for (const char *Var :
         {"OPTIML_RUNTIME_DIR", "OPTIML_CACHE_DIR", "OPTIML_FAKE_RUNNER_DIR",
          "OPTIML_FAKE_RUNNER_EXIT", "OPTIML_FAKE_RUNNER_SLEEP"})
      if (const char *Old = std::getenv(Var))
        Saved.push_back({Var, Old});
    setenv("OPTIML_RUNTIME_DIR", path("runtime").c_str(), 1);
    setenv("OPTIML_CACHE_DIR", path("cache").c_str(), 1);
    setenv("OPTIML_FAKE_RUNNER_DIR", Dir.c_str(), 1);
    unsetenv("OPTIML_FAKE_RUNNER_EXIT");
    unsetenv("OPTIML_FAKE_RUNNER_SLEEP");
    auto R = Runner::prepare("optiml-unittests", "sm_90");
    ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
    TheRunner.emplace(std::move(*R));
  }
  void TearDown() override {
    for (const char *Var :
         {"OPTIML_RUNTIME_DIR", "OPTIML_CACHE_DIR", "OPTIML_FAKE_RUNNER_DIR",
          "OPTIML_FAKE_RUNNER_EXIT", "OPTIML_FAKE_RUNNER_SLEEP"})
      unsetenv(Var);
    for (const auto &[Var, Value] : Saved)
      setenv(Var.c_str(), Value.c_str(), 1);
    if (!Dir.empty())
      llvm::sys::fs::remove_directories(Dir);
  }

  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  void write(llvm::StringRef Name, llvm::StringRef Text) const {
    llvm::SmallString<256> Parent(path(Name));
    llvm::sys::path::remove_filename(Parent);
    ASSERT_FALSE(llvm::sys::fs::create_directories(Parent));
    std::error_code EC;
    llvm::raw_fd_ostream OS(path(Name), EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  /// The result the fake runner will write.
  void willWrite(const protocol::Json &Result) const {
    write("result.json", Result.dump(2));
  }

  static protocol::RunPlan plan() {
    protocol::RunPlan P;
    P.Reference = "/c/ref.so";
    protocol::Instance I;
    I.Name = "default";
    I.Time = true;
    protocol::Arg Out;
    Out.Name = "y";
    Out.Role = protocol::ArgRole::Out;
    Out.Count = 10;
    I.Args = {Out};
    P.Instances = {I};
    return P;
  }
  static protocol::RunResult verified() {
    protocol::RunResult R;
    R.Status = protocol::RunStatus::Ok;
    R.Phase = "done";
    R.Verify.emplace().Passed = true;
    R.Device.emplace().Name = "NVIDIA H200";
    return R;
  }

  llvm::SmallString<256> Dir;
  std::vector<std::pair<std::string, std::string>> Saved;
  std::optional<Runner> TheRunner;
};

TEST_F(RunnerTest, TheResultIsDecodedOnceAndThePlanIsTheProtocols) {
  willWrite(verified());
  RunOutcome O = llvm::cantFail(TheRunner->run(plan(), 30));
  EXPECT_EQ(O.Status, "ok");
  EXPECT_TRUE(O.Error.empty());
  EXPECT_TRUE(O.accepted());
  ASSERT_TRUE(O.Result && O.Result->Device);
  EXPECT_EQ(O.Result->Device->Name, "NVIDIA H200");
  EXPECT_NE(O.Log.find("optiml-runner: fake"), std::string::npos);
  // The runner was handed the plan in the protocol's encoding.
  auto Sent = llvm::MemoryBuffer::getFile(path("plan.json"));
  ASSERT_TRUE(bool(Sent));
  EXPECT_EQ((*Sent)->getBuffer(), protocol::encode(plan()));
}

TEST_F(RunnerTest, TheRunnersVerdictAndErrorAreKept) {
  protocol::RunResult R = verified();
  R.Status = protocol::RunStatus::VerifyFailed;
  R.Error = "1 verification failure(s); timing, energy and metrics skipped";
  R.Verify->Passed = false;
  willWrite(R);
  setenv("OPTIML_FAKE_RUNNER_EXIT", "1", 1);
  RunOutcome O = llvm::cantFail(TheRunner->run(plan(), 30));
  EXPECT_EQ(O.Status, "verify_failed");
  EXPECT_EQ(O.Error, *R.Error);
  EXPECT_FALSE(O.accepted());
}

TEST_F(RunnerTest, AResultOfAnotherSchemaVersionIsOneError) {
  protocol::Json J = verified();
  J["schema_version"] = 99;
  willWrite(J);
  auto O = TheRunner->run(plan(), 30);
  ASSERT_FALSE(bool(O));
  ErrorSummary E = summarize(O.takeError());
  EXPECT_EQ(E.Kind, ErrorKind::Internal);
  EXPECT_EQ(E.Message,
            "the runner's result does not match this tool: schema_version: "
            "the result has version 99, this build of OptiML reads version " +
                std::to_string(protocol::SchemaVersion) +
                " (remove the cached runner to rebuild it)");
  EXPECT_EQ(E.Message.find('\n'), std::string::npos);
}

TEST_F(RunnerTest, AKilledRunnerKeepsItsLastResult) {
  protocol::RunResult R;
  R.Phase = "verify default seed 1 candidate run 1/2";
  willWrite(R);
  setenv("OPTIML_FAKE_RUNNER_SLEEP", "20", 1);
  RunOutcome O = llvm::cantFail(TheRunner->run(plan(), 1));
  EXPECT_EQ(O.Status, "timeout");
  EXPECT_EQ(O.Error, "the runner was killed after 1 s");
  ASSERT_TRUE(O.Result.has_value());
  EXPECT_EQ(O.Result->Status, protocol::RunStatus::Incomplete);
  EXPECT_EQ(O.Result->Phase, R.Phase);
}

TEST_F(RunnerTest, AStopRequestKillsTheRunner) {
  // A SIGTERM sent to the tool alone does not reach the runner: the wait
  // kills it once the tool was asked to stop (here as soon as it is heard),
  // rather than waiting out its two minutes.
  willWrite(verified());
  setenv("OPTIML_FAKE_RUNNER_SLEEP", "120", 1);
  clearStopRequest();
  auto O = TheRunner->run(plan(), 300, [](llvm::StringRef) { requestStop(); });
  clearStopRequest();
  ASSERT_TRUE(bool(O)) << llvm::toString(O.takeError());
  EXPECT_EQ(O->Status, "crash");
  EXPECT_EQ(O->Error, "killed: the tool was asked to stop");
}

TEST_F(RunnerTest, NoResultOrAnUnreadableOneIsARunnerError) {
  setenv("OPTIML_FAKE_RUNNER_EXIT", "5", 1);
  RunOutcome O = llvm::cantFail(TheRunner->run(plan(), 30));
  EXPECT_EQ(O.Status, "runner_error");
  EXPECT_EQ(O.Error, "the runner exited with 5 and wrote no result");
  EXPECT_FALSE(O.Result.has_value());

  protocol::Json J = verified();
  J["verify"].erase("failures_total");
  willWrite(J);
  O = llvm::cantFail(TheRunner->run(plan(), 30));
  EXPECT_EQ(O.Status, "runner_error");
  EXPECT_EQ(O.Error, "the runner exited with 5 and wrote an unreadable "
                     "result: verify.failures_total: missing");
}

TEST_F(RunnerTest, NoGpuIsAnError) {
  setenv("OPTIML_FAKE_RUNNER_EXIT", "4", 1);
  auto O = TheRunner->run(plan(), 30);
  ASSERT_FALSE(bool(O));
  EXPECT_EQ(summarize(O.takeError()).Kind, ErrorKind::NoGPU);
}

} // namespace

TEST_F(RunnerTest, PhasesAreHeardWhileTheRunnerRuns) {
  willWrite(verified());
  setenv("OPTIML_FAKE_RUNNER_SLEEP", "1", 1);
  std::vector<std::string> Phases;
  RunOutcome O =
      llvm::cantFail(TheRunner->run(plan(), 30, [&](llvm::StringRef Phase) {
        Phases.push_back(Phase.str());
      }));
  EXPECT_EQ(O.Status, "ok");
  // The fake's one progress line, without the runner's prefix; nothing
  // else it printed is a phase.
  EXPECT_EQ(Phases, std::vector<std::string>{"fake"});
}

TEST_F(RunnerTest, TheDriversKernelAttributesAreDecoded) {
  protocol::RunResult R = verified();
  protocol::KernelAttributes A;
  A.Registers = 40;
  A.SharedBytes = 8192;
  A.LocalBytes = 16;
  A.MaxThreadsPerBlock = 1024;
  A.BinaryVersion = 90;
  A.PtxVersion = 90;
  R.Libraries = protocol::LibrariesReport{{"/c/ref.so", "k", A},
                                          {"/c/cand.so", "k", std::nullopt}};
  willWrite(R);
  RunOutcome O = llvm::cantFail(TheRunner->run(plan(), 30));
  ASSERT_TRUE(O.Result && O.Result->Libraries);
  ASSERT_TRUE(O.Result->Libraries->Reference.Attributes.has_value());
  EXPECT_EQ(O.Result->Libraries->Reference.Attributes->Registers, 40);
  EXPECT_EQ(O.Result->Libraries->Reference.Attributes->SharedBytes, 8192u);
  EXPECT_EQ(O.Result->Libraries->Reference.Attributes->LocalBytes, 16u);
  // A driver that would not say leaves the key out, and that is fine.
  EXPECT_FALSE(O.Result->Libraries->Candidate.Attributes.has_value());
}

TEST(RunnerDeviceTest, AChildSeesTheGpuThisProcessNumbersSo) {
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  EXPECT_EQ(Runner::visibleDeviceOf(0), "0");
  EXPECT_EQ(Runner::visibleDeviceOf(3), "3");
  // Narrowed already: the ordinals count the entries.
  ::setenv("CUDA_VISIBLE_DEVICES", "2, 5,GPU-8f3a", 1);
  EXPECT_EQ(Runner::visibleDeviceOf(0), "2");
  EXPECT_EQ(Runner::visibleDeviceOf(1), "5");
  EXPECT_EQ(Runner::visibleDeviceOf(2), "GPU-8f3a");
  ::unsetenv("CUDA_VISIBLE_DEVICES");
}

namespace {

/// The same fake runner, as a worker that serves plan after plan.
class RunnerWorkerTest : public RunnerTest {
protected:
  void SetUp() override {
    RunnerTest::SetUp();
    if (TheRunner)
      Worker.emplace(TheRunner->persistent());
  }
  /// "fake N of process P": which plan of which process answered.
  static std::string answeredBy(const RunOutcome &O) {
    size_t At = O.Log.find("optiml-runner: fake ");
    if (At == std::string::npos)
      return "";
    size_t End = O.Log.find('\n', At);
    return O.Log.substr(At + 20, End - At - 20);
  }
  static std::string processOf(const RunOutcome &O) {
    std::string A = answeredBy(O);
    return A.substr(A.find("process"));
  }
  std::optional<Runner> Worker;
};

TEST_F(RunnerWorkerTest, OneProcessServesPlanAfterPlan) {
  willWrite(verified());
  RunOutcome First = llvm::cantFail(Worker->run(plan(), 30));
  protocol::RunPlan Second = plan();
  Second.Candidate = "/c/cand.so";
  RunOutcome Then = llvm::cantFail(Worker->run(Second, 30));
  EXPECT_EQ(First.Status, "ok");
  EXPECT_EQ(Then.Status, "ok");
  EXPECT_TRUE(Then.Result && Then.Result->Device);
  EXPECT_EQ(answeredBy(First).substr(0, 2), "1 ");
  EXPECT_EQ(answeredBy(Then).substr(0, 2), "2 ");
  EXPECT_EQ(processOf(First), processOf(Then));
  EXPECT_EQ(Worker->workerStarts(), 1u);
  // Each plan's log holds its own lines only, without the protocol's.
  EXPECT_EQ(Then.Log.find("fake 1 "), std::string::npos);
  EXPECT_EQ(Then.Log.find("serving"), std::string::npos);
  auto Sent = llvm::MemoryBuffer::getFile(path("plan.json"));
  ASSERT_TRUE(bool(Sent));
  EXPECT_EQ((*Sent)->getBuffer(), protocol::encode(Second));
}

TEST_F(RunnerWorkerTest, TheVerdictOfEachPlanIsItsOwn) {
  protocol::RunResult R = verified();
  R.Status = protocol::RunStatus::VerifyFailed;
  R.Error = "1 verification failure(s); timing, energy and metrics skipped";
  R.Verify->Passed = false;
  willWrite(R);
  RunOutcome O = llvm::cantFail(Worker->run(plan(), 30));
  EXPECT_EQ(O.Status, "verify_failed");
  EXPECT_EQ(O.Error, *R.Error);
  willWrite(verified());
  EXPECT_EQ(llvm::cantFail(Worker->run(plan(), 30)).Status, "ok");
  EXPECT_EQ(Worker->workerStarts(), 1u);
}

TEST_F(RunnerWorkerTest, WaitingForTheGpuIsNotThePlansTime) {
  // Another search's runner measures on the GPU: the worker says "serving"
  // only once it holds it, and the plan's timeout starts there. The wait
  // (4 s) is twice the plan's time, and the plan has 2 s for the fake's
  // few commands after "serving": a loaded machine keeps the margin.
  willWrite(verified());
  write("gpuwait", "4");
  RunOutcome O = llvm::cantFail(Worker->run(plan(), 2));
  EXPECT_EQ(O.Status, "ok");
}

TEST_F(RunnerWorkerTest, AGpuNeverFreedEndsTheWaitWithItsReason) {
  willWrite(verified());
  write("gpuwait", "30");
  RunOutcome O = llvm::cantFail(Worker->run(plan(), 1));
  EXPECT_EQ(O.Status, "timeout");
  EXPECT_EQ(O.Error, "the runner was killed: it waited 5 s for the GPU "
                     "(another runner held it)");
}

TEST_F(RunnerWorkerTest, AHangingPlanKillsItsWorkerAndTheNextGetsANewOne) {
  protocol::RunResult R;
  R.Phase = "verify default seed 1 candidate run 1/2";
  willWrite(R);
  write("sleep", "30");
  RunOutcome Hung = llvm::cantFail(Worker->run(plan(), 1));
  EXPECT_EQ(Hung.Status, "timeout");
  EXPECT_EQ(Hung.Error, "the runner was killed after 1 s");
  ASSERT_TRUE(Hung.Result.has_value());
  EXPECT_EQ(Hung.Result->Phase, R.Phase);
  llvm::sys::fs::remove(path("sleep"));
  willWrite(verified());
  RunOutcome Next = llvm::cantFail(Worker->run(plan(), 30));
  EXPECT_EQ(Next.Status, "ok");
  EXPECT_NE(processOf(Hung), processOf(Next));
  EXPECT_EQ(Worker->workerStarts(), 2u);
}

TEST_F(RunnerWorkerTest, ACrashIsThePlansAndTheNextPlanGetsANewWorker) {
  willWrite(verified());
  RunOutcome Before = llvm::cantFail(Worker->run(plan(), 30));
  write("crash", "");
  RunOutcome Crashed = llvm::cantFail(Worker->run(plan(), 30));
  EXPECT_EQ(Crashed.Status, "crash");
  RunOutcome After = llvm::cantFail(Worker->run(plan(), 30));
  EXPECT_EQ(After.Status, "ok");
  EXPECT_EQ(processOf(Before), processOf(Crashed));
  EXPECT_NE(processOf(Crashed), processOf(After));
  EXPECT_EQ(Worker->workerStarts(), 2u);
}

TEST_F(RunnerWorkerTest, AWorkerThatLeavesAfterAFaultKeepsThePlansResult) {
  protocol::RunResult R = verified();
  R.Status = protocol::RunStatus::Fault;
  R.Error = "kernel 'k' failed: an illegal memory access was encountered";
  willWrite(R);
  write("exit", "2");
  RunOutcome O = llvm::cantFail(Worker->run(plan(), 30));
  EXPECT_EQ(O.Status, "fault");
  EXPECT_EQ(O.Error, *R.Error);
  willWrite(verified());
  EXPECT_EQ(llvm::cantFail(Worker->run(plan(), 30)).Status, "ok");
  EXPECT_EQ(Worker->workerStarts(), 2u);
}

TEST_F(RunnerWorkerTest, AStopRequestKillsTheWorkerAndStartsNoOther) {
  willWrite(verified());
  write("sleep", "120");
  clearStopRequest();
  auto O = Worker->run(plan(), 300, [](llvm::StringRef) { requestStop(); });
  clearStopRequest();
  ASSERT_TRUE(bool(O)) << llvm::toString(O.takeError());
  EXPECT_EQ(O->Status, "crash");
  EXPECT_EQ(O->Error, "killed: the tool was asked to stop");
  EXPECT_EQ(Worker->workerStarts(), 1u);
}

TEST_F(RunnerWorkerTest, NoGpuIsAnErrorThroughAWorkerToo) {
  setenv("OPTIML_FAKE_RUNNER_EXIT", "4", 1);
  auto O = Worker->run(plan(), 30);
  ASSERT_FALSE(bool(O));
  EXPECT_EQ(summarize(O.takeError()).Kind, ErrorKind::NoGPU);
}

TEST_F(RunnerWorkerTest, EachGpuHasAWorkerOfItsOwnOnItsDevice) {
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  willWrite(verified());
  Runner Gpu0 = TheRunner->onDevice(0).persistent();
  Runner Gpu1 = TheRunner->onDevice(1).persistent();
  std::optional<RunOutcome> On1;
  // As --gpus runs them: one thread per GPU, at the same time.
  std::thread Other([&] { On1 = llvm::cantFail(Gpu1.run(plan(), 30)); });
  RunOutcome On0 = llvm::cantFail(Gpu0.run(plan(), 30));
  Other.join();
  ASSERT_TRUE(On1.has_value());
  EXPECT_EQ(On0.Status, "ok");
  EXPECT_EQ(On1->Status, "ok");
  EXPECT_NE(processOf(On0), processOf(*On1));
  EXPECT_NE(On0.Log.find(" on GPU 0"), std::string::npos) << On0.Log;
  EXPECT_NE(On1->Log.find(" on GPU 1"), std::string::npos) << On1->Log;
  EXPECT_EQ(Gpu0.workerStarts(), 1u);
  EXPECT_EQ(Gpu1.workerStarts(), 1u);
}

TEST_F(RunnerWorkerTest, PhasesAreHeardAndTheProtocolsLinesAreNot) {
  willWrite(verified());
  std::vector<std::string> Phases;
  RunOutcome O =
      llvm::cantFail(Worker->run(plan(), 30, [&](llvm::StringRef Phase) {
        Phases.push_back(Phase.str());
      }));
  EXPECT_EQ(O.Status, "ok");
  ASSERT_EQ(Phases.size(), 1u);
  EXPECT_EQ(llvm::StringRef(Phases[0]).take_front(7), "fake 1 ");
}

} // namespace
