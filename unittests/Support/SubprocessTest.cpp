//===- SubprocessTest.cpp - children that fail, crash or hang ------------===//

#include "optiml/Support/Subprocess.h"
#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

#include <chrono>
#include <thread>
#include <vector>

using namespace optiml;

static SubprocessResult sh(const std::string &Script, unsigned Timeout) {
  std::string Sh = findProgram("sh");
  auto R = runSubprocess(Sh, {Sh, "-c", Script}, Timeout);
  EXPECT_TRUE(static_cast<bool>(R));
  return R ? *R : SubprocessResult();
}

TEST(SubprocessTest, CapturesOutputAndExitCode) {
  SubprocessResult R = sh("echo out; echo err >&2; exit 3", 10);
  EXPECT_EQ(R.ExitCode, 3);
  EXPECT_FALSE(R.TimedOut || R.Signaled);
  EXPECT_NE(R.Output.find("out"), std::string::npos);
  EXPECT_NE(R.Output.find("err"), std::string::npos);
}

TEST(SubprocessTest, HangIsKilledAtTheLimit) {
  auto Start = std::chrono::steady_clock::now();
  SubprocessResult R = sh("sleep 30", 1);
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  EXPECT_TRUE(R.TimedOut);
  EXPECT_FALSE(R.succeeded());
  EXPECT_LT(Seconds, 10.0);
}

TEST(SubprocessTest, CrashIsAResult) {
  SubprocessResult R = sh("kill -SEGV $$", 10);
  EXPECT_TRUE(R.Signaled);
  EXPECT_FALSE(R.TimedOut);
  EXPECT_FALSE(R.succeeded());
}

TEST(SubprocessTest, MissingProgramIsAnError) {
  auto R = runSubprocess("/nonexistent/optiml-tool", {"x"}, 5);
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_EQ(summarize(R.takeError()).Kind, ErrorKind::BadInput);
}

TEST(SubprocessTest, LinesArriveWhileTheChildRuns) {
  using Clock = std::chrono::steady_clock;
  std::string Sh = findProgram("sh");
  std::vector<std::pair<std::string, Clock::time_point>> Lines;
  auto R =
      runSubprocess(Sh, {Sh, "-c", "echo one; sleep 1; printf 'two\\nthree'"},
                    10, [&](llvm::StringRef Line) {
                      Lines.push_back({Line.str(), Clock::now()});
                    });
  Clock::time_point End = Clock::now();
  ASSERT_TRUE(static_cast<bool>(R));
  ASSERT_EQ(Lines.size(), 3u);
  EXPECT_EQ(Lines[0].first, "one");
  EXPECT_EQ(Lines[1].first, "two");
  EXPECT_EQ(Lines[2].first, "three"); // The last line has no break.
  // "one" was seen while the child slept, not when it ended.
  EXPECT_GT(std::chrono::duration<double>(End - Lines[0].second).count(), 0.5);
  EXPECT_EQ(R->Output, "one\ntwo\nthree");
}

TEST(SubprocessTest, TimeLimitsOfConcurrentChildrenAreTheirOwn) {
  // One process has one alarm: limits taken from it would cut the wrong
  // child short. Each child here keeps its own.
  SubprocessResult Short, Long;
  std::thread A([&] { Short = sh("sleep 30", 1); });
  std::thread B([&] { Long = sh("sleep 2; exit 5", 20); });
  A.join();
  B.join();
  EXPECT_TRUE(Short.TimedOut);
  EXPECT_FALSE(Long.TimedOut);
  EXPECT_EQ(Long.ExitCode, 5);
}

TEST(SubprocessTest, AGivenEnvironmentReplacesOneVariable) {
  ::setenv("OPTIML_SUBPROCESS_KEPT", "kept", 1);
  ::setenv("OPTIML_SUBPROCESS_SET", "old", 1);
  std::vector<std::string> Env =
      environmentWith("OPTIML_SUBPROCESS_SET", "new");
  std::string Sh = findProgram("sh");
  auto R = runSubprocess(
      Sh, {Sh, "-c", "echo $OPTIML_SUBPROCESS_KEPT-$OPTIML_SUBPROCESS_SET"},
      10, nullptr, &Env);
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(llvm::StringRef(R->Output).trim(), "kept-new");
}
