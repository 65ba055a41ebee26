//===- main.cpp - optiml-runner: verify, time and profile a candidate -----===//
//
// Part of OptiML.
//
//   optiml-runner --plan plan.json --out result.json
//   optiml-runner --serve requests.txt      (one plan after another: Server.h)
//
// The plan and result formats and the exit codes are documented in
// docs/Runner.md. The result file is written even when the run fails.
//
//===----------------------------------------------------------------------===//

#include "GpuLock.h"
#include "Result.h"
#include "Server.h"
#include "Session.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace optiml;

namespace {

void printUsage() {
  std::fprintf(stderr,
               "usage: optiml-runner --plan <plan.json> --out <result.json>\n"
               "       optiml-runner --serve <requests>\n"
               "Verifies a candidate kernel against a reference, times both "
               "with CUPTI and\noptionally collects hardware metrics and "
               "energy. See docs/Runner.md.\n"
               "exit codes: 0 ok, 1 verify_failed, 2 fault or launch_error, "
               "3 bad_plan or\nload_error, 4 no GPU, 5 runner error\n");
}

struct Options {
  std::string PlanPath;
  std::string OutPath;
  std::string RequestsPath;
  bool Help = false;
};

/// Accepts "--plan X" and "--plan=X" forms.
bool parseArgs(int Argc, char **Argv, Options &O, std::string &Why) {
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Take = [&](const char *Flag, std::string &Into) {
      std::string Prefix = std::string(Flag) + "=";
      if (A.compare(0, Prefix.size(), Prefix) == 0) {
        Into = A.substr(Prefix.size());
        return true;
      }
      if (A == Flag && I + 1 < Argc) {
        Into = Argv[++I];
        return true;
      }
      return false;
    };
    if (A == "-h" || A == "--help")
      O.Help = true;
    else if (!Take("--plan", O.PlanPath) && !Take("--out", O.OutPath) &&
             !Take("--serve", O.RequestsPath)) {
      Why = "unexpected argument '" + A + "'";
      return false;
    }
  }
  if (!O.RequestsPath.empty() && (!O.PlanPath.empty() || !O.OutPath.empty())) {
    Why = "--serve takes its plans from the requests file, not --plan/--out";
    return false;
  }
  if (!O.Help && O.RequestsPath.empty() &&
      (O.PlanPath.empty() || O.OutPath.empty())) {
    Why = "both --plan and --out are required";
    return false;
  }
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  std::string Why;
  bool ArgsOk = parseArgs(Argc, Argv, O, Why);
  if (O.Help) {
    printUsage();
    return 0;
  }
  if (!ArgsOk) {
    ResultWriter Result(O.OutPath);
    std::fprintf(stderr, "optiml-runner: %s\n", Why.c_str());
    printUsage();
    Result.finish(Status::BadPlan, Why);
    return exitCode(Status::BadPlan);
  }
  if (!O.RequestsPath.empty())
    return serve(O.RequestsPath);
  Session S(/*Serving=*/false);
  GpuLock Gpu;
  Gpu.acquire();
  return runPlanFile(O.PlanPath, O.OutPath, S);
}
