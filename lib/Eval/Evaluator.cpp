//===- Evaluator.cpp - build, verify and time one candidate --------------===//

#include "optiml/Eval/Evaluator.h"
#include "optiml/Protocol/Document.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/OutputPath.h"
#include "optiml/Support/Stopwatch.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace optiml;
using nlohmann::json;

const BuildResult *Evaluation::failedBuild() const {
  if (!Reference.Succeeded)
    return &Reference;
  return Candidate.Succeeded ? nullptr : &Candidate;
}

/// The build log shown for a failed build: its end, where nvcc's errors are.
/// The runner's steps, shown as they start: a run takes seconds to
/// minutes. Its closing "status" line is left to the summary that follows.
static std::function<void(llvm::StringRef)>
runnerProgress(llvm::raw_ostream *Log) {
  if (!Log)
    return nullptr;
  return [Log](llvm::StringRef Phase) {
    if (Phase.starts_with("status "))
      return;
    *Log << "clang-optiml: on the GPU: " << Phase << "\n";
    Log->flush();
  };
}

/// Registers and memory as the driver loaded each kernel, in place of
/// ptxas' estimate, when the runner got that far.
static void useLoadedAttributes(Evaluation &E, llvm::StringRef Kernel) {
  if (!E.Run.Result || !E.Run.Result->Libraries)
    return;
  const protocol::LibrariesReport &L = *E.Run.Result->Libraries;
  if (L.Reference.Attributes)
    E.Reference.Usage = withLoadedAttributes(E.Reference.Usage,
                                             *L.Reference.Attributes, Kernel);
  if (L.Candidate.Attributes)
    E.Candidate.Usage = withLoadedAttributes(E.Candidate.Usage,
                                             *L.Candidate.Attributes, Kernel);
}

static std::string buildLog(const BuildResult &B) {
  return llvm::StringRef(B.Log).take_back(8000).str();
}

static RunOutcome outcome(std::string Status) {
  RunOutcome O;
  O.Status = std::move(Status);
  return O;
}

llvm::Expected<Evaluation>
Evaluator::evaluate(const KernelSource &Reference,
                    const KernelSource *Candidate, const KernelInfo &Kernel,
                    const KernelSpec &Spec, const Runner *R,
                    const KernelSpec *CandidateSpec) const {
  auto Instances = Spec.instantiate(Kernel);
  if (!Instances)
    return Instances.takeError();
  std::optional<std::vector<ConcreteInstance>> CandInstances;
  if (CandidateSpec) {
    auto CI = CandidateSpec->instantiate(Kernel);
    if (!CI)
      return CI.takeError();
    if (CI->size() != Instances->size())
      return makeError(ErrorKind::BadInput,
                       "the candidate's spec has other problem instances "
                       "than the reference's");
    CandInstances = std::move(*CI);
  }

  std::vector<BuildRequest> Requests = {{&Reference, &Kernel}};
  if (Candidate)
    Requests.push_back({Candidate, &Kernel});
  if (Log)
    *Log << "clang-optiml: building " << Kernel.QualifiedName
         << (Candidate ? " and its candidate" : "") << " with nvcc for "
         << B.options().Arch << "\n";
  auto Builds = B.buildAll(Requests, 2);
  Evaluation E;
  for (auto &Build : Builds)
    if (!Build)
      return Build.takeError();
  E.Reference = *Builds[0];
  E.Candidate = Candidate ? *Builds[1] : *Builds[0];
  if (E.failedBuild()) {
    E.Run = outcome("build_failed");
    return E;
  }
  // The plan is written with --build-only too: what a GPU would be asked.
  auto Plan = makeRunPlan(Spec, *Instances, E.Reference.Library,
                          Candidate ? E.Candidate.Library : "", Options,
                          CandInstances ? &*CandInstances : nullptr);
  if (!Plan)
    return Plan.takeError();
  if (!Options.SavePlanPath.empty())
    if (llvm::Error E = writeOutputFile(Options.SavePlanPath,
                                        protocol::encode(*Plan) + "\n"))
      return E;
  if (!R) {
    E.Run = outcome("built");
    return E;
  }
  Stopwatch Clock;
  if (Log)
    *Log << "clang-optiml: on the GPU: verifying " << Instances->size()
         << " instance" << (Instances->size() == 1 ? "" : "s") << " x "
         << Spec.Seeds.size() << " seeds, then timing to a noise of "
         << llvm::format("%.1f%%", 100 * Options.NoiseTarget)
         << " (stopped after " << TimeoutSeconds << " s)\n";
  auto Run = R->run(*Plan, TimeoutSeconds, runnerProgress(Log));
  if (!Run)
    return Run.takeError();
  E.Run = std::move(*Run);
  useLoadedAttributes(E, Kernel.Name);
  if (Log)
    *Log << "clang-optiml: the runner finished in "
         << llvm::format("%.1f", Clock.seconds()) << " s: " << E.Run.Status
         << "\n";
  return E;
}

json optiml::toJSON(const BuildResult &Build) {
  json J = {{"succeeded", Build.Succeeded},
            {"cached", Build.Cached},
            {"key", Build.Key},
            {"library", Build.Library},
            {"usage", nullptr},
            {"sass", nullptr}};
  if (Build.Usage)
    J["usage"] = toJSON(*Build.Usage);
  if (Build.Sass)
    J["sass"] = toJSON(*Build.Sass);
  if (!Build.Succeeded)
    J["log"] = buildLog(Build);
  return J;
}

/// The runner's result as it wrote it, with the tool's view of the run
/// (status, error, the runner's stderr); for a failed build, which side and
/// its log.
static json resultJSON(const Evaluation &E) {
  if (const BuildResult *Failed = E.failedBuild())
    return {{"status", "build_failed"},
            {"side", Failed == &E.Reference ? "reference" : "candidate"},
            {"log", buildLog(*Failed)}};
  if (E.status() == "built")
    return {{"status", "built"}};
  json J = E.Run.Result ? json(protocol::Json(*E.Run.Result)) : json::object();
  J["status"] = E.status();
  if (!E.Run.Error.empty())
    J["error"] = E.Run.Error;
  J["runner_log"] = E.Run.Log;
  return J;
}

json optiml::toJSON(const Evaluation &E) {
  return {{"status", E.status()},
          {"accepted", E.accepted()},
          {"build",
           {{"reference", toJSON(E.Reference)},
            {"candidate", toJSON(E.Candidate)}}},
          {"result", resultJSON(E)}};
}
