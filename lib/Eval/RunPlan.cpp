//===- RunPlan.cpp - what the GPU runner is asked to do ------------------===//

#include "optiml/Eval/RunPlan.h"
#include "optiml/Spec/SpecDraft.h"

using namespace optiml;
using nlohmann::json;

static json distribution(const Distribution &D) {
  json J = {{"kind", D.Kind}};
  if (D.Kind == "uniform" || D.Kind == "int")
    J.update({{"lo", D.A}, {"hi", D.B}});
  else if (D.Kind == "normal")
    J.update({{"mean", D.A}, {"std", D.B}});
  else if (D.Kind == "index") {
    J.update({{"scale", D.A}, {"offset", D.B}});
    if (D.Mod)
      J["mod"] = *D.Mod;
  } else if (D.Kind == "constant")
    J["value"] = D.A;
  return J;
}

static json argument(const ConcreteArg &A) {
  json J = {{"name", A.Name}, {"type", A.ElementType}};
  if (A.Role == ArgRole::Scalar) {
    J["kind"] = "scalar";
    J["value"] = A.Value;
    return J;
  }
  J["kind"] = "buffer";
  J["role"] = roleName(A.Role).str();
  J["count"] = A.Count;
  if (A.Dist)
    J["dist"] = distribution(*A.Dist);
  return J;
}

static json instance(const ConcreteInstance &I) {
  json Args = json::array();
  for (const ConcreteArg &A : I.Args)
    Args.push_back(argument(A));
  return {{"name", I.Name},   {"time", I.Time},          {"grid", I.Grid},
          {"block", I.Block}, {"shmem", I.SharedMemory}, {"args", Args}};
}

static bool sameLaunch(const ConcreteInstance &A, const ConcreteInstance &B) {
  return A.Grid == B.Grid && A.Block == B.Block &&
         A.SharedMemory == B.SharedMemory;
}

json optiml::makeRunPlan(const KernelSpec &Spec,
                         const std::vector<ConcreteInstance> &Instances,
                         llvm::StringRef Reference, llvm::StringRef Candidate,
                         const MeasureOptions &O,
                         const std::vector<ConcreteInstance> *CandInstances) {
  json Insts = json::array();
  for (size_t K = 0; K < Instances.size(); ++K) {
    Insts.push_back(instance(Instances[K]));
    if (!CandInstances || K >= CandInstances->size() ||
        sameLaunch(Instances[K], (*CandInstances)[K]))
      continue;
    const ConcreteInstance &C = (*CandInstances)[K];
    Insts.back()["candidate_launch"] = {
        {"grid", C.Grid}, {"block", C.Block}, {"shmem", C.SharedMemory}};
  }
  json Plan = {
      {"reference", Reference.str()},
      {"instances", Insts},
      {"seeds", Spec.Seeds},
      {"tolerance",
       {{"rtol", Spec.RTol}, {"atol", Spec.ATol}, {"norm", Spec.NormTol}}},
      {"timing",
       {{"warmup", O.Warmup},
        {"min_reps", O.MinReps},
        {"max_reps", O.MaxReps},
        {"noise_target", O.NoiseTarget},
        {"max_seconds", O.MaxSeconds},
        {"flush_l2", O.FlushL2}}},
      {"metrics", O.Metrics},
      {"energy", O.Energy}};
  if (!Candidate.empty())
    Plan["candidate"] = Candidate.str();
  return Plan;
}
