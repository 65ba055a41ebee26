//===- RunPlan.cpp - what the GPU runner is asked to do ------------------===//

#include "optiml/Eval/RunPlan.h"
#include "optiml/Support/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace optiml;
namespace proto = optiml::protocol;

/// The spec's distribution (kind and up to three numbers) with the plan's
/// named parameters. The spec checked that int bounds and an index modulus
/// are integers.
static proto::Distribution distribution(const Distribution &D) {
  using K = proto::Distribution::Kind;
  proto::Distribution P;
  if (D.Kind == "uniform") {
    P.K = K::Uniform;
    P.Lo = D.A;
    P.Hi = D.B;
  } else if (D.Kind == "int") {
    P.K = K::Int;
    P.IntLo = static_cast<int64_t>(std::llround(D.A));
    P.IntHi = static_cast<int64_t>(std::llround(D.B));
  } else if (D.Kind == "normal") {
    P.K = K::Normal;
    P.Mean = D.A;
    P.Std = D.B;
  } else if (D.Kind == "offsets") {
    P.K = K::Offsets;
    P.IntLo = static_cast<int64_t>(std::llround(D.A));
    P.IntHi = static_cast<int64_t>(std::llround(D.B));
  } else if (D.Kind == "permutation") {
    P.K = K::Permutation;
  } else if (D.Kind == "sorted") {
    P.K = K::Sorted;
    P.Lo = D.A;
    P.Hi = D.B;
  } else if (D.Kind == "index") {
    P.K = K::Index;
    P.Scale = D.A;
    P.Offset = D.B;
    P.Mod = D.Mod ? static_cast<uint64_t>(std::llround(*D.Mod)) : 0;
  } else {
    P.K = K::Constant;
    P.Value = D.A;
  }
  return P;
}

/// A scalar's value, exact for its type. The spec checked that it fits the
/// type and, for integers, that it is integral and at most 2^53.
static proto::ScalarValue scalarValue(const ConcreteArg &A) {
  if (proto::isFloatType(A.Type))
    return A.Value;
  if (A.Type == proto::ElemType::U64)
    return static_cast<uint64_t>(std::llround(A.Value));
  return static_cast<int64_t>(std::llround(A.Value));
}

static proto::Arg argument(const ConcreteArg &A) {
  proto::Arg P;
  P.Name = A.Name;
  P.Role = A.Role;
  P.Type = A.Type;
  P.AliasOf = A.AliasOf;
  P.Symbol = A.Symbol;
  P.Extra = A.Extra;
  if (A.Role == ArgRole::Scalar) {
    P.Value = scalarValue(A);
    return P;
  }
  // The runner walks lanes: an element of several numbers is that many.
  P.Count =
      static_cast<uint64_t>(A.Count) * std::max<size_t>(1, A.Fields.size());
  if (A.Dist)
    P.Dist = distribution(*A.Dist);
  for (const ConcreteField &F : A.Fields) {
    proto::Field &PF = P.Fields.emplace_back();
    PF.Name = F.Name;
    PF.Type = F.Type;
    if (F.Dist)
      PF.Dist = distribution(*F.Dist);
  }
  return P;
}

static llvm::Expected<proto::Launch> launch(const ConcreteInstance &I) {
  if (I.SharedMemory > std::numeric_limits<unsigned>::max())
    return makeError(ErrorKind::BadInput,
                     "instance '" + I.Name + "' asks for " +
                         llvm::Twine(I.SharedMemory) +
                         " bytes of shared memory, more than 32 bits hold");
  proto::Launch L;
  for (size_t D = 0; D < 3; ++D) {
    L.Grid[D] = static_cast<unsigned>(I.Grid[D]);
    L.Block[D] = static_cast<unsigned>(I.Block[D]);
  }
  L.Shmem = static_cast<unsigned>(I.SharedMemory);
  return L;
}

static bool sameLaunch(const ConcreteInstance &A, const ConcreteInstance &B) {
  return A.Grid == B.Grid && A.Block == B.Block &&
         A.SharedMemory == B.SharedMemory;
}

llvm::Expected<proto::RunPlan>
optiml::makeRunPlan(const KernelSpec &Spec,
                    const std::vector<ConcreteInstance> &Instances,
                    llvm::StringRef Reference, llvm::StringRef Candidate,
                    const MeasureOptions &O,
                    const std::vector<ConcreteInstance> *CandInstances) {
  proto::RunPlan Plan;
  Plan.Reference = Reference.str();
  Plan.Candidate = Candidate.str();
  for (size_t K = 0; K < Instances.size(); ++K) {
    const ConcreteInstance &I = Instances[K];
    proto::Instance &P = Plan.Instances.emplace_back();
    P.Name = I.Name;
    P.Time = I.Time;
    auto Geometry = launch(I);
    if (!Geometry)
      return Geometry.takeError();
    P.Geometry = *Geometry;
    for (const ConcreteArg &A : I.Args)
      P.Args.push_back(argument(A));
    P.Sequence = I.Sequence;
    if (!CandInstances || K >= CandInstances->size())
      continue;
    const ConcreteInstance &C = (*CandInstances)[K];
    if (proto::Json(C.Sequence) != proto::Json(I.Sequence))
      P.CandidateSequence = C.Sequence;
    if (sameLaunch(I, C))
      continue;
    auto Own = launch((*CandInstances)[K]);
    if (!Own)
      return Own.takeError();
    P.CandidateGeometry = *Own;
  }
  // The runner matches CUPTI records by the function's own name.
  for (const std::string &Qualified : Spec.Companions) {
    auto [Scope, Name] = llvm::StringRef(Qualified).rsplit("::");
    Plan.Companions.push_back((Name.empty() ? Scope : Name).str());
  }
  Plan.Seeds = Spec.Seeds;
  // One seed more, of inputs at the edges of their distributions: a
  // candidate must not assume more of its inputs than the spec says.
  Plan.EdgeSeed = *std::max_element(Spec.Seeds.begin(), Spec.Seeds.end()) + 1;
  Plan.Tol = {Spec.RTol, Spec.ATol, Spec.NormTol};
  Plan.Timing = static_cast<const proto::TimingOptions &>(O);
  Plan.Metrics = O.Metrics;
  Plan.MetricsMinSpeedup = O.MetricsMinSpeedup;
  Plan.Energy = O.Energy;
  return Plan;
}
