//===- Server.cpp - A runner that serves one plan after another -----------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Server.h"
#include "GpuLock.h"
#include "Plan.h"
#include "Result.h"
#include "Runner.h"
#include "Session.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <thread>
#include <unistd.h>

namespace optiml {

namespace {

/// Plans a worker serves before it ends and a fresh one takes over.
constexpr unsigned MaxPlans = 400;

/// Follows a file that another process appends lines to (tail -f): a read
/// at its end waits a little and tries again.
class RequestReader {
public:
  explicit RequestReader(const std::string &Path)
      : Fd(::open(Path.c_str(), O_RDONLY | O_CLOEXEC)), Parent(getppid()) {}
  ~RequestReader() {
    if (Fd >= 0)
      ::close(Fd);
  }
  bool ok() const { return Fd >= 0; }

  /// The next complete line; false once the parent process is gone.
  bool next(std::string &Line) {
    for (;;) {
      size_t End = Pending.find('\n');
      if (End != std::string::npos) {
        Line = Pending.substr(0, End);
        Pending.erase(0, End + 1);
        return true;
      }
      char Chunk[4096];
      ssize_t Got = ::read(Fd, Chunk, sizeof(Chunk));
      if (Got > 0) {
        Pending.append(Chunk, static_cast<size_t>(Got));
        continue;
      }
      if (getppid() != Parent)
        return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

private:
  int Fd;
  pid_t Parent;
  std::string Pending;
};

} // namespace

int runPlanFile(const std::string &PlanPath, const std::string &OutPath,
                Session &S) {
  ResultWriter Result(OutPath);
  Result.write();
  Plan P;
  if (Error E = loadPlan(PlanPath, P)) {
    Result.finish(E.status(), E.message());
    std::fprintf(stderr, "optiml-runner: %s\n", E.message().c_str());
    return exitCode(E.status());
  }
  Runner R(P, Result, S);
  std::string Message;
  Status St = R.run(Message);
  Result.finish(St, Message);
  std::fprintf(stderr, "optiml-runner: status %s%s%s\n", statusName(St),
               Message.empty() ? "" : ": ", Message.c_str());
  if (St == Status::Fault) {
    // The context is dead. Tearing down CUDA and CUPTI state on it can hang
    // or crash, and the result is already on disk: leave at once.
    std::fflush(stderr);
    std::_Exit(exitCode(St));
  }
  return exitCode(St);
}

int serve(const std::string &RequestsPath) {
  RequestReader Requests(RequestsPath);
  if (!Requests.ok()) {
    std::fprintf(stderr, "optiml-runner: cannot read requests from '%s'\n",
                 RequestsPath.c_str());
    return exitCode(Status::BadPlan);
  }
  Session S(/*Serving=*/true);
  std::string Line;
  for (unsigned N = 1; N <= MaxPlans && Requests.next(Line); ++N) {
    if (Line == "quit")
      return 0;
    size_t Tab = Line.find('\t');
    // "serving" once the GPU is ours: the parent's timeout starts there.
    GpuLock Gpu;
    Gpu.acquire();
    std::fprintf(stderr, "optiml-runner: serving %u\n", N);
    std::fflush(stderr);
    int Code = exitCode(Status::BadPlan);
    if (Tab == std::string::npos)
      std::fprintf(stderr,
                   "optiml-runner: a request is '<plan>\\t<out>', "
                   "not '%s'\n",
                   Line.c_str());
    else
      Code = runPlanFile(Line.substr(0, Tab), Line.substr(Tab + 1), S);
    std::fprintf(stderr, "optiml-runner: served %u exit %d\n", N, Code);
    std::fflush(stderr);
  }
  return 0;
}

} // namespace optiml
