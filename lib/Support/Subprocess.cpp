//===- Subprocess.cpp - run a program with a time limit ------------------===//
//
// The child is started without waiting and polled (a non-blocking wait, then
// a short sleep), never with LLVM's alarm-based time limit: builds run on
// several threads at once, and a process has one alarm. Polling is also
// what lets a caller see the output while the child runs.
//
//===----------------------------------------------------------------------===//

#include "optiml/Support/Subprocess.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"
#include "optiml/Support/LineFollower.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <thread>
#include <unistd.h> // environ

using namespace optiml;
namespace fs = llvm::sys::fs;

/// Waits for \p PI, polling, and kills it at \p TimeoutSeconds (0: never),
/// or once the tool was asked to stop (\p Stopped).
static llvm::sys::ProcessInfo waitPolling(const llvm::sys::ProcessInfo &PI,
                                          unsigned TimeoutSeconds,
                                          LineFollower &Follower,
                                          std::string &ErrMsg, bool &TimedOut,
                                          bool &Stopped) {
  using Clock = std::chrono::steady_clock;
  auto Deadline = Clock::now() + std::chrono::seconds(TimeoutSeconds);
  // Short children (most nvcc queries) are seen within milliseconds, long
  // ones every 25 ms: a waitpid and a read each time, and a build's end
  // adds at most 25 ms to a candidate.
  std::chrono::milliseconds Nap(1);
  for (;;) {
    llvm::sys::ProcessInfo Done =
        llvm::sys::Wait(PI, /*SecondsToWait=*/0, &ErrMsg, nullptr,
                        /*Polling=*/true);
    if (Done.Pid != 0)
      return Done;
    Follower.poll();
    if (TimeoutSeconds && Clock::now() >= Deadline) {
      ::kill(PI.Pid, SIGKILL);
      TimedOut = true;
      return llvm::sys::Wait(PI, std::nullopt, &ErrMsg);
    }
    // A signal sent to the tool alone (kill PID, a container's stop) does
    // not reach its children: after it none runs on, as after a Ctrl-C,
    // which stops the terminal's whole process group.
    if (stopRequested()) {
      ::kill(PI.Pid, SIGKILL);
      Stopped = true;
      return llvm::sys::Wait(PI, std::nullopt, &ErrMsg);
    }
    std::this_thread::sleep_for(Nap);
    Nap = std::min(Nap * 2, std::chrono::milliseconds(25));
  }
}

llvm::Expected<SubprocessResult>
optiml::runSubprocess(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
                      unsigned TimeoutSeconds, const OutputLineFn &OnLine,
                      const std::vector<std::string> *Env) {
  llvm::SmallString<128> LogPath;
  if (std::error_code EC =
          fs::createTemporaryFile("optiml-child", "log", LogPath))
    return makeError(ErrorKind::Internal,
                     "cannot create a temporary file: " + EC.message());
  llvm::FileRemover RemoveLog(LogPath);

  std::vector<llvm::StringRef> Argv(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(LogPath), llvm::StringRef(LogPath)};
  std::optional<std::vector<llvm::StringRef>> Envp;
  if (Env)
    Envp.emplace(Env->begin(), Env->end());
  std::optional<llvm::ArrayRef<llvm::StringRef>> EnvRef;
  if (Envp)
    EnvRef = *Envp;
  std::string ErrMsg;
  bool ExecutionFailed = false;
  llvm::sys::ProcessInfo PI =
      llvm::sys::ExecuteNoWait(Program, Argv, EnvRef, Redirects,
                               /*MemoryLimit=*/0, &ErrMsg, &ExecutionFailed);
  if (ExecutionFailed || PI.Pid == llvm::sys::ProcessInfo::InvalidPid)
    return makeError(ErrorKind::BadInput,
                     "cannot run " + Program + ": " + ErrMsg);

  LineFollower Follower(LogPath, OnLine);
  SubprocessResult R;
  bool Stopped = false;
  llvm::sys::ProcessInfo Done =
      waitPolling(PI, TimeoutSeconds, Follower, ErrMsg, R.TimedOut, Stopped);
  Follower.finish();
  if (auto Log = llvm::MemoryBuffer::getFile(LogPath))
    R.Output = (*Log)->getBuffer().str();
  if (R.TimedOut) {
    R.Reason = "timed out after " + std::to_string(TimeoutSeconds) + " s";
    return R;
  }
  if (Stopped) {
    R.Signaled = true;
    R.Reason = "killed: the tool was asked to stop";
    return R;
  }
  if (Done.ReturnCode >= 0) {
    R.ExitCode = Done.ReturnCode;
    return R;
  }
  // LLVM reports a fatal signal as -2 and a child that could not execute
  // its program (exit 126/127) as -1, with the reason in its message.
  R.Reason = ErrMsg;
  R.Signaled = true;
  return R;
}

extern char **environ;

std::vector<std::string> optiml::environmentWith(llvm::StringRef Name,
                                                llvm::StringRef Value) {
  std::vector<std::string> Env;
  std::string Prefix = (Name + "=").str();
  for (char **E = environ; *E; ++E)
    if (!llvm::StringRef(*E).starts_with(Prefix))
      Env.push_back(*E);
  Env.push_back(Prefix + Value.str());
  return Env;
}

std::string optiml::findProgram(llvm::StringRef Name) {
  auto Path = llvm::sys::findProgramByName(Name);
  return Path ? *Path : std::string();
}
