//===- EvaluateFlags.cpp - the options of --evaluate ---------------------===//

#include "Flags.h"

using namespace optiml;
using namespace llvm;

static cl::OptionCategory EvaluateHeading("Options of --evaluate");

static cl::opt<std::string>
    CandidateFile("candidate",
                  cl::desc("A rewritten copy of the file "
                           "to compare against it"),
                  cl::value_desc("file.cu"), cl::cat(optimlCategory()));
static cl::opt<bool> Metrics("metrics",
                             cl::desc("Also collect hardware "
                                      "counters (CUPTI Range Profiler)"),
                             cl::cat(optimlCategory()));
static cl::opt<bool> BuildOnly("build-only",
                               cl::desc("Compile the launchers with nvcc and "
                                        "report resource usage, without a GPU"),
                               cl::cat(optimlCategory()));
static cl::opt<std::string>
    SavePlan("save-plan",
             cl::desc("Write the runner's plan (JSON) here, "
                      "to rerun optiml-runner by hand or under a profiler"),
             cl::value_desc("file.json"), cl::cat(optimlCategory()));

EvaluateOptions optiml::evaluateOptions(const TargetFlags &T) {
  EvaluateOptions O;
  O.Kernel = T.Kernel;
  O.Candidate = CandidateFile;
  O.SpecPath = T.SpecPath;
  O.Arch = T.Arch;
  O.NvccFlags = T.NvccFlags;
  O.Measure.Metrics = Metrics;
  O.Measure.NoiseTarget = T.NoiseTarget;
  O.Measure.SavePlanPath = SavePlan;
  O.TimeoutSeconds = T.TimeoutSeconds;
  O.BuildOnly = BuildOnly;
  return O;
}

std::vector<OptionTable::Row> optiml::evaluateRows() {
  static const OptionGroup EvaluateOnly{EvaluateHeading, {"evaluate"}};
  return {
      {CandidateFile, EvaluateOnly},
      {Metrics, EvaluateOnly},
      {BuildOnly, EvaluateOnly},
      {SavePlan, EvaluateOnly},
  };
}
