//===- RunnerWorker.cpp - one runner process for a whole search ----------===//

#include "optiml/Eval/RunnerWorker.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <thread>

using namespace optiml;
namespace fs = llvm::sys::fs;

/// Other runners' plans that one plan may wait behind for the GPU, each
/// within its own timeout.
static constexpr unsigned MaxPlansAhead = 4;

/// The running `optiml-runner --serve`, its requests file and its log.
struct RunnerWorker::Process {
  llvm::sys::ProcessInfo Info;
  llvm::SmallString<128> RequestsPath, LogPath;
  /// Where the log's lines go during an exchange; null between plans.
  OutputLineFn Sink;
  std::unique_ptr<LineFollower> Log;
  unsigned Sent = 0;
  bool Exited = false;
  int ExitCode = 0;
  bool Signaled = false;
  std::string Reason;

  ~Process() {
    Log.reset();
    fs::remove(RequestsPath);
    fs::remove(LogPath);
  }

  /// Whether the worker has ended (reaped once, then remembered).
  bool exited() {
    if (Exited)
      return true;
    std::string Err;
    llvm::sys::ProcessInfo Done =
        llvm::sys::Wait(Info, /*SecondsToWait=*/0, &Err, nullptr,
                        /*Polling=*/true);
    if (Done.Pid == 0)
      return false;
    Exited = true;
    if (Done.ReturnCode >= 0) {
      ExitCode = Done.ReturnCode;
    } else {
      Signaled = true;
      Reason = Err;
    }
    return true;
  }

  void kill() {
    if (exited())
      return;
    ::kill(Info.Pid, SIGKILL);
    std::string Err;
    llvm::sys::Wait(Info, std::nullopt, &Err);
    Exited = true;
  }

  /// Appends one line to the requests file the worker follows.
  bool send(llvm::StringRef Line) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(RequestsPath, EC, fs::OF_Append);
    if (EC)
      return false;
    OS << Line << "\n";
    return !OS.has_error();
  }
};

RunnerWorker::RunnerWorker(std::string Executable, std::string VisibleDevice)
    : Executable(std::move(Executable)),
      VisibleDevice(std::move(VisibleDevice)) {}

RunnerWorker::~RunnerWorker() { stop(); }

llvm::Error RunnerWorker::start() {
  auto P = std::make_unique<Process>();
  for (auto [Suffix, Path] :
       {std::pair{"req", &P->RequestsPath}, std::pair{"log", &P->LogPath}})
    if (std::error_code EC =
            fs::createTemporaryFile("optiml-worker", Suffix, *Path))
      return makeError(ErrorKind::Internal,
                       "cannot create a temporary file: " + EC.message());
  std::vector<llvm::StringRef> Argv = {Executable, "--serve", P->RequestsPath};
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(P->LogPath),
                                                llvm::StringRef(P->LogPath)};
  std::vector<std::string> Env;
  std::vector<llvm::StringRef> EnvRefs;
  std::optional<llvm::ArrayRef<llvm::StringRef>> EnvArg;
  if (!VisibleDevice.empty()) {
    Env = environmentWith("CUDA_VISIBLE_DEVICES", VisibleDevice);
    EnvRefs.assign(Env.begin(), Env.end());
    EnvArg = EnvRefs;
  }
  std::string ErrMsg;
  bool Failed = false;
  P->Info = llvm::sys::ExecuteNoWait(Executable, Argv, EnvArg, Redirects,
                                     /*MemoryLimit=*/0, &ErrMsg, &Failed);
  if (Failed || P->Info.Pid == llvm::sys::ProcessInfo::InvalidPid)
    return makeError(ErrorKind::BadInput,
                     "cannot run " + Executable + ": " + ErrMsg);
  Process *Raw = P.get();
  P->Log =
      std::make_unique<LineFollower>(P->LogPath, [Raw](llvm::StringRef Line) {
        if (Raw->Sink)
          Raw->Sink(Line);
      });
  Child = std::move(P);
  ++Starts;
  return llvm::Error::success();
}

void RunnerWorker::stop() {
  if (!Child)
    return;
  if (!Child->exited() && Child->send("quit")) {
    auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (!Child->exited() && std::chrono::steady_clock::now() < Deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  Child->kill();
  Child.reset();
}

SubprocessResult RunnerWorker::exchange(llvm::StringRef PlanPath,
                                        llvm::StringRef ResultPath,
                                        unsigned TimeoutSeconds,
                                        const OutputLineFn &OnLine,
                                        bool &Taken) {
  Process &P = *Child;
  SubprocessResult R;
  Taken = false;
  unsigned N = ++P.Sent;
  std::string Serving = "optiml-runner: serving " + std::to_string(N);
  std::string Served = "optiml-runner: served " + std::to_string(N) + " exit ";
  bool Answered = false;
  P.Sink = [&](llvm::StringRef Line) {
    if (Line == Serving) {
      Taken = true;
    } else if (Line.consume_front(Served)) {
      Answered = !Line.trim().getAsInteger(10, R.ExitCode);
    } else {
      R.Output += Line;
      R.Output += '\n';
      if (OnLine)
        OnLine(Line);
    }
  };
  if (!P.send((PlanPath + "\t" + ResultPath).str()))
    P.kill(); // Seen below as a worker that ended before the plan.

  // The worker says "serving" once it holds the GPU (another search's
  // runner may be measuring on it): the plan's time starts there. Until
  // then it waits for up to MaxPlansAhead other plans, each of which its
  // own search kills at its limit.
  using Clock = std::chrono::steady_clock;
  auto Deadline =
      Clock::now() + std::chrono::seconds(TimeoutSeconds) * (1 + MaxPlansAhead);
  bool Started = false;
  std::chrono::milliseconds Nap(1);
  for (;;) {
    P.Log->poll();
    if (Answered)
      break;
    if (Taken && !Started) {
      Started = true;
      Deadline = Clock::now() + std::chrono::seconds(TimeoutSeconds);
    }
    if (P.exited()) {
      P.Log->finish();
      if (!Answered) {
        R.ExitCode = P.ExitCode;
        R.Signaled = P.Signaled;
        R.Reason = P.Reason;
      }
      P.Sink = nullptr;
      Child.reset();
      return R;
    }
    // As runSubprocess: no runner runs on once the tool was asked to stop.
    if (stopRequested()) {
      P.kill();
      P.Log->finish();
      R.Signaled = true;
      R.Reason = "killed: the tool was asked to stop";
      P.Sink = nullptr;
      Child.reset();
      return R;
    }
    if (TimeoutSeconds && Clock::now() >= Deadline) {
      P.kill();
      P.Log->finish();
      R.TimedOut = true;
      R.Reason =
          Started ? "timed out after " + std::to_string(TimeoutSeconds) + " s"
                  : "waited " +
                        std::to_string(TimeoutSeconds * (1 + MaxPlansAhead)) +
                        " s for the GPU (another runner held it)";
      P.Sink = nullptr;
      Child.reset();
      return R;
    }
    std::this_thread::sleep_for(Nap);
    Nap = std::min(Nap * 2, std::chrono::milliseconds(10));
  }
  P.Sink = nullptr;
  return R;
}

llvm::Expected<SubprocessResult> RunnerWorker::run(llvm::StringRef PlanPath,
                                                   llvm::StringRef ResultPath,
                                                   unsigned TimeoutSeconds,
                                                   const OutputLineFn &OnLine) {
  std::lock_guard<std::mutex> Lock(Busy);
  SubprocessResult R;
  // A worker that ended between plans (its plan limit, or it died idle)
  // never saw this one: a new worker gets it, once.
  for (int Attempt = 0; Attempt < 2; ++Attempt) {
    if (Child && Child->exited())
      Child.reset();
    if (!Child)
      if (llvm::Error E = start())
        return std::move(E);
    bool Taken = false;
    R = exchange(PlanPath, ResultPath, TimeoutSeconds, OnLine, Taken);
    if (Taken || R.TimedOut || stopRequested())
      break;
  }
  return R;
}
