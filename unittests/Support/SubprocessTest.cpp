//===- SubprocessTest.cpp - children that fail, crash or hang ------------===//

#include "optiml/Support/Subprocess.h"
#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

#include <chrono>

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
