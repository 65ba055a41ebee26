//===- SubprocessTest.cpp - children that fail, crash or hang ------------===//

#include "optiml/Support/Subprocess.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <chrono>
#include <thread>
#include <vector>

using namespace optiml;

/// A path in the temporary folder that no file has yet.
static std::string freshPath(llvm::StringRef Name) {
  llvm::SmallString<128> Path;
  llvm::sys::fs::createUniquePath("optiml-subprocess-" + Name + "-%%%%%%", Path,
                                  /*MakeAbsolute=*/true);
  return std::string(Path);
}

static void touch(llvm::StringRef Path) {
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC);
  EXPECT_FALSE(EC) << EC.message();
}

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
  // A child that would sleep ten minutes is killed at its one-second limit:
  // not before it, and long before its own end. The upper bound is half the
  // child's length, which no load of the machine reaches.
  auto Start = std::chrono::steady_clock::now();
  SubprocessResult R = sh("exec sleep 600", 1);
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  EXPECT_TRUE(R.TimedOut);
  EXPECT_FALSE(R.succeeded());
  EXPECT_GE(Seconds, 1.0);
  EXPECT_LT(Seconds, 300.0);
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
  // The child prints "one", then waits until the callback has seen it (a
  // file the callback creates) before it prints the rest: the lines can
  // only all arrive if the first came while the child ran. Were it seen
  // only at the end, the child would wait until its generous limit.
  std::string Seen = freshPath("seen");
  std::string Sh = findProgram("sh");
  std::vector<std::string> Lines;
  auto R =
      runSubprocess(Sh,
                    {Sh, "-c",
                     "echo one; while [ ! -e \"$0\" ]; do sleep 0.01; done; "
                     "printf 'two\\nthree'",
                     Seen},
                    300, [&](llvm::StringRef Line) {
                      if (Lines.empty())
                        touch(Seen);
                      Lines.push_back(Line.str());
                    });
  llvm::sys::fs::remove(Seen);
  ASSERT_TRUE(static_cast<bool>(R));
  EXPECT_FALSE(R->TimedOut);
  ASSERT_EQ(Lines.size(), 3u);
  EXPECT_EQ(Lines[0], "one");
  EXPECT_EQ(Lines[1], "two");
  EXPECT_EQ(Lines[2], "three"); // The last line has no break.
  EXPECT_EQ(R->Output, "one\ntwo\nthree");
}

TEST(SubprocessTest, TimeLimitsOfConcurrentChildrenAreTheirOwn) {
  // One process has one alarm: limits taken from it would cut the wrong
  // child short. Each child here keeps its own: the long one runs until
  // the short one was killed at its limit (a file says so), then ends on
  // its own well within its generous limit.
  std::string ShortDone = freshPath("short-done");
  SubprocessResult Short, Long;
  std::thread A([&] {
    Short = sh("exec sleep 600", 1);
    touch(ShortDone);
  });
  std::thread B([&] {
    Long = sh("while [ ! -e '" + ShortDone + "' ]; do sleep 0.01; done; exit 5",
              300);
  });
  A.join();
  B.join();
  llvm::sys::fs::remove(ShortDone);
  EXPECT_TRUE(Short.TimedOut);
  EXPECT_FALSE(Long.TimedOut);
  EXPECT_EQ(Long.ExitCode, 5);
}

TEST(SubprocessTest, AStopRequestKillsTheChild) {
  // A SIGTERM sent to the tool alone does not reach its children: once the
  // tool was asked to stop (here when the child's first line is heard),
  // the wait kills the child instead of waiting out its ten minutes.
  clearStopRequest();
  std::string Sh = findProgram("sh");
  auto R = runSubprocess(Sh, {Sh, "-c", "echo started; exec sleep 600"}, 300,
                         [](llvm::StringRef) { requestStop(); });
  clearStopRequest();
  ASSERT_TRUE(static_cast<bool>(R));
  EXPECT_TRUE(R->Signaled);
  EXPECT_FALSE(R->TimedOut);
  EXPECT_EQ(R->Reason, "killed: the tool was asked to stop");
  EXPECT_EQ(R->Output, "started\n");
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
