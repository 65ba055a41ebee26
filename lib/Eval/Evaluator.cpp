//===- Evaluator.cpp - build, verify and time one candidate --------------===//

#include "optiml/Eval/Evaluator.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/raw_ostream.h"

using namespace optiml;
using nlohmann::json;

bool Evaluation::accepted() const {
  return status() == "ok" && Result.contains("verify") &&
         Result["verify"].value("passed", false);
}

static json buildFailure(const char *Side, const BuildResult &B) {
  return {{"status", "build_failed"},
          {"side", Side},
          {"log", llvm::StringRef(B.Log).take_back(8000).str()}};
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
  auto Builds = B.buildAll(Requests, 2);
  Evaluation E;
  for (auto &Build : Builds)
    if (!Build)
      return Build.takeError();
  E.Reference = *Builds[0];
  E.Candidate = Candidate ? *Builds[1] : *Builds[0];
  if (!E.Reference.Succeeded) {
    E.Result = buildFailure("reference", E.Reference);
    return E;
  }
  if (!E.Candidate.Succeeded) {
    E.Result = buildFailure("candidate", E.Candidate);
    return E;
  }
  if (!R) {
    E.Result = {{"status", "built"}};
    return E;
  }
  json Plan = makeRunPlan(Spec, *Instances, E.Reference.Library,
                          Candidate ? E.Candidate.Library : "", Options,
                          CandInstances ? &*CandInstances : nullptr);
  if (!Options.SavePlanPath.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Options.SavePlanPath, EC);
    if (EC)
      return makeError(ErrorKind::BadInput, "cannot write " +
                                                Options.SavePlanPath + ": " +
                                                EC.message());
    OS << Plan.dump(2) << "\n";
  }
  auto Result = R->run(Plan, TimeoutSeconds);
  if (!Result)
    return Result.takeError();
  E.Result = std::move(*Result);
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
    J["log"] = llvm::StringRef(Build.Log).take_back(8000).str();
  return J;
}

json optiml::toJSON(const Evaluation &E) {
  return {{"status", E.status()},
          {"accepted", E.accepted()},
          {"build",
           {{"reference", toJSON(E.Reference)},
            {"candidate", toJSON(E.Candidate)}}},
          {"result", E.Result}};
}
