//===- InstanceSequence.cpp - every launch of one run, in numbers --------===//
//
// A spec's sequence spelled out for one instance: for each value of the
// repeat variable, the launches before the kernel, the kernel, the
// launches after it, then the swaps. Buffers are named by their index in
// the instance's arguments, and a swap exchanges two names' indices, so
// the runner never needs to know what a swap is.
//
//===----------------------------------------------------------------------===//

#include "Instantiator.h"
#include "optiml/Spec/ElementLayout.h"
#include "optiml/Spec/SpecDiagnostic.h"
#include "optiml/Spec/SpecExprEvaluator.h"

#include <cmath>

using namespace optiml;
using llvm::Error;
using llvm::Expected;

/// A scalar's value exact for its type, as the plan carries it.
static protocol::ScalarValue exactValue(protocol::ElemType T, double V) {
  if (protocol::isFloatType(T))
    return V;
  if (T == protocol::ElemType::U64)
    return static_cast<uint64_t>(std::llround(V));
  return static_cast<int64_t>(std::llround(V));
}

Error Instantiator::sequence(ConcreteInstance &I) {
  const SequenceSpec &Seq = Spec.Sequence;
  if (Seq.empty())
    return Error::success();
  int64_t First = 1, Last = 1;
  if (Seq.Repeats) {
    SpecExprEvaluator Eval(Sizes);
    auto F = Eval.evaluateInteger(Seq.First, "first repetition");
    if (!F)
      return F.takeError();
    auto L = Eval.evaluateInteger(Seq.Last, "last repetition");
    if (!L)
      return L.takeError();
    First = *F;
    Last = *L;
  }
  uint64_t PerRun = Seq.Steps.size() + 1;
  if (Last < First ||
      uint64_t(Last - First + 1) > protocol::detail::MaxSequence / PerRun)
    return specError(Seq.Last.Pos,
                     "the sequence repeats " +
                         llvm::Twine(Last < First ? 0 : Last - First + 1) +
                         " time(s), " + llvm::Twine(PerRun) +
                         " launch(es) each",
                     "1 to " + llvm::Twine(protocol::detail::MaxSequence) +
                         " launches in all");
  std::map<std::string, size_t> Slots;
  for (size_t K = 0; K < I.Args.size(); ++K)
    if (I.Args[K].Role != ArgRole::Scalar && !I.Args[K].Symbol)
      Slots[I.Args[K].Name] = K;
  if (Error Err = swapsFit(I, Slots))
    return Err;
  for (int64_t V = First; V <= Last; ++V) {
    if (!Seq.Var.empty())
      StepSizes[Seq.Var] = V;
    for (bool Before : {true, false}) {
      if (!Before) {
        auto Own = kernelStep(Slots);
        if (!Own)
          return Own.takeError();
        I.Sequence.push_back(std::move(*Own));
      }
      for (const StepSpec &S : Seq.Steps) {
        if (S.Before != Before)
          continue;
        auto Other = companionStep(S, Slots);
        if (!Other)
          return Other.takeError();
        I.Sequence.push_back(std::move(*Other));
      }
    }
    for (const auto &[A, B] : Seq.Swaps)
      std::swap(Slots[A], Slots[B]);
  }
  return Error::success();
}

/// Swapped buffers trade places, so they must hold as many elements of
/// one layout in this instance.
Error Instantiator::swapsFit(const ConcreteInstance &I,
                             const std::map<std::string, size_t> &Slots) const {
  for (const auto &[A, B] : Spec.Sequence.Swaps) {
    const ConcreteArg &X = I.Args[Slots.at(A)], &Y = I.Args[Slots.at(B)];
    if (X.Count != Y.Count || X.Type != Y.Type ||
        X.Fields.size() != Y.Fields.size())
      return specError(Spec.Sequence.Pos,
                       "swap of '" + A + "' (" + llvm::Twine(X.Count) +
                           " elements) and '" + B + "' (" +
                           llvm::Twine(Y.Count) + " elements)",
                       "two buffers of one length and element type");
  }
  return Error::success();
}

Expected<protocol::Launch>
Instantiator::geometry(const std::array<SpecExpr, 3> &Grid,
                       const std::array<SpecExpr, 3> &Block,
                       const SpecExpr &Shmem) const {
  std::array<int64_t, 3> G, B;
  if (Error Err = dims(Grid, "grid", G))
    return Err;
  if (Error Err = dims(Block, "block", B))
    return Err;
  auto S =
      SpecExprEvaluator(StepSizes).evaluateInteger(Shmem, "shared memory size");
  if (!S)
    return S.takeError();
  if (Error Err = launchLimits(G, B, *S, Grid, Block, Shmem))
    return Err;
  protocol::Launch L;
  for (size_t D = 0; D < 3; ++D) {
    L.Grid[D] = static_cast<unsigned>(G[D]);
    L.Block[D] = static_cast<unsigned>(B[D]);
  }
  L.Shmem = static_cast<unsigned>(*S);
  return L;
}

Expected<protocol::Step>
Instantiator::kernelStep(const std::map<std::string, size_t> &Slots) const {
  protocol::Step Out;
  Out.Kernel = 0;
  Out.Cooperative = Spec.Sequence.Cooperative;
  auto L = geometry(Spec.Grid, Spec.Block, Spec.SharedMemory);
  if (!L)
    return L.takeError();
  Out.Geometry = *L;
  for (size_t K = 0; K < Spec.Args.size(); ++K) {
    const ArgSpec &A = Spec.Args[K];
    protocol::StepArg &SA = Out.Args.emplace_back();
    if (!A.AliasOf.empty()) {
      SA.Buffer = Slots.at(A.AliasOf);
    } else if (A.Null) {
      SA.Null = true;
    } else if (A.Role != ArgRole::Scalar) {
      SA.Buffer = Slots.at(A.Name);
    } else {
      ConcreteArg Value;
      if (Error Err = arg(A, Kernel.Params[K], Value))
        return Err;
      SA.Type = Value.Type;
      SA.Value = exactValue(Value.Type, Value.Value);
    }
  }
  return Out;
}

/// What another kernel's arguments are evaluated with: the sizes, the
/// repeat variable and the kernel's own integer scalars in this repetition
/// (`then(fold<<<1, 256>>>(part, total, n))`); a size wins over a
/// parameter of its name.
std::map<std::string, int64_t> Instantiator::argumentSizes() const {
  std::map<std::string, int64_t> Out = StepSizes;
  for (size_t K = 0; K < Spec.Args.size(); ++K) {
    const ArgSpec &A = Spec.Args[K];
    if (A.Role != ArgRole::Scalar || A.Null || !A.AliasOf.empty() ||
        Out.count(A.Name))
      continue;
    auto V = SpecExprEvaluator(StepSizes).evaluate(A.Value);
    if (V && V->IsInteger)
      Out[A.Name] = V->Int;
    else
      llvm::consumeError(V.takeError());
  }
  return Out;
}

Expected<protocol::Step>
Instantiator::companionStep(const StepSpec &S,
                            const std::map<std::string, size_t> &Slots) const {
  protocol::Step Out;
  Out.Kernel = S.Companion;
  Out.Cooperative = S.Cooperative;
  auto L = geometry(S.Grid, S.Block, S.SharedMemory);
  if (!L)
    return L.takeError();
  Out.Geometry = *L;
  const SiblingKernel *K = Kernel.sibling(S.Kernel);
  std::map<std::string, int64_t> Env = argumentSizes();
  for (size_t I = 0; I < S.Args.size(); ++I) {
    const StepArgSpec &A = S.Args[I];
    protocol::StepArg &SA = Out.Args.emplace_back();
    if (!A.Buffer.empty()) {
      SA.Buffer = Slots.at(A.Buffer);
      continue;
    }
    if (A.Null) {
      SA.Null = true;
      continue;
    }
    auto V = SpecExprEvaluator(Env).evaluate(A.Value);
    if (!V)
      return V.takeError();
    ElementType T = ElementType::of(A.Type);
    if (!T.holds(V->toDouble()))
      return specError(A.Value.Pos,
                       "'" + A.Value.Text + "' = " + numberText(V->toDouble()) +
                           " does not fit parameter '" +
                           (K ? K->Params[I].Name : std::to_string(I)) +
                           "' of '" + S.Kernel + "' (" + T.Name + ")",
                       "a value from " + numberText(T.Min) + " to " +
                           numberText(T.Max));
    SA.Type = A.Type;
    SA.Value = exactValue(A.Type, V->toDouble());
  }
  return Out;
}
