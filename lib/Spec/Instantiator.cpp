//===- Instantiator.cpp - one problem instance in numbers ----------------===//

#include "Instantiator.h"
#include "optiml/Spec/ElementLayout.h"
#include "optiml/Spec/InstanceSizes.h"
#include "optiml/Spec/SpecDiagnostic.h"
#include "optiml/Spec/SpecExprEvaluator.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace optiml;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

/// The message of an error met in a named instance says which one, and its
/// sizes: the expression is the same in every instance, the numbers are not.
Error Instantiator::withContext(Error Err, const InstanceSpec *Instance) const {
  if (!Instance || !Err)
    return Err;
  std::vector<std::string> Values;
  for (const auto &[Name, Value] : Sizes)
    Values.push_back(Name + " = " + std::to_string(Value));
  return optiml::withContext(std::move(Err),
                             " in instance '" + Instance->Name + "' (" +
                                 llvm::join(Values, ", ") + ")");
}

Expected<ConcreteInstance> Instantiator::run(const InstanceSpec *Instance) {
  auto Evaluated = instanceSizes(Spec.Sizes, Instance);
  if (!Evaluated)
    return Evaluated.takeError(); // Says which instance already.
  Sizes = std::move(*Evaluated);
  StepSizes = Sizes;
  if (!Spec.Sequence.Var.empty()) {
    auto First = SpecExprEvaluator(Sizes).evaluateInteger(
        Spec.Sequence.First, "first value of '" + Spec.Sequence.Var + "'");
    if (!First)
      return withContext(First.takeError(), Instance);
    StepSizes[Spec.Sequence.Var] = *First;
  }
  ConcreteInstance I;
  I.Name = Instance ? Instance->Name : "default";
  I.Time = !Instance;
  I.Sizes = Sizes;
  for (const ParamInfo &P : Kernel.Params) {
    const ArgSpec *A = nullptr;
    for (const ArgSpec &Candidate : Spec.Args)
      if (Candidate.Name == P.Name)
        A = &Candidate;
    if (!A)
      return specError(Kernel.Pos,
                       "parameter '" + P.Name + "' of kernel '" + Kernel.Name +
                           "' is not in its spec",
                       "a spec loaded for this kernel");
    I.Args.emplace_back();
    if (Error Err = arg(*A, P, I.Args.back()))
      return withContext(std::move(Err), Instance);
  }
  for (size_t K = 0; K < Spec.Extras.size(); ++K) {
    ConcreteArg &Extra = I.Args.emplace_back();
    if (Error Err = arg(Spec.Extras[K], Spec.ExtraParams[K], Extra))
      return withContext(std::move(Err), Instance);
    Extra.Extra = true;
  }
  for (const ArgSpec &S : Spec.Symbols)
    if (Error Err = symbol(S, I.Args.emplace_back()))
      return withContext(std::move(Err), Instance);
  SpecExprEvaluator Eval(StepSizes);
  auto Shmem = Eval.evaluateInteger(Spec.SharedMemory, "shared memory size");
  if (!Shmem)
    return withContext(Shmem.takeError(), Instance);
  I.SharedMemory = *Shmem;
  if (Error Err = dims(Spec.Grid, "grid", I.Grid))
    return withContext(std::move(Err), Instance);
  if (Error Err = dims(Spec.Block, "block", I.Block))
    return withContext(std::move(Err), Instance);
  if (Error Err = launchLimits(I.Grid, I.Block, I.SharedMemory, Spec.Grid,
                               Spec.Block, Spec.SharedMemory))
    return withContext(std::move(Err), Instance);
  if (Error Err = sequence(I))
    return withContext(std::move(Err), Instance);
  return I;
}

/// The largest value an offsets or permutation distribution writes into a
/// buffer of \p Count elements, which its type must hold: the length is
/// known only now.
static Error structureFits(const ArgSpec &A, const ElementLayout &Layout,
                           int64_t Count) {
  std::vector<std::tuple<std::string, const Distribution *, ElementType>> Dists;
  if (A.Dist)
    Dists.push_back({A.Name, &*A.Dist, Layout.Lane});
  for (const auto &[Field, D] : A.FieldDists)
    for (const LaneField *F : Layout.select(Field))
      Dists.push_back({A.Name + "." + F->Name, &D, F->Type});
  for (const auto &[Name, D, T] : Dists) {
    double Largest = D->Kind == "permutation" ? double(Count - 1)
                     : D->Kind == "offsets"   ? double(Count - 1) * D->B
                                              : 0;
    if (Largest > T.Max)
      return specError(A.Pos,
                       D->Kind + " of '" + Name + "' reaches " +
                           numberText(Largest) + ", more than its type (" +
                           T.Name + ") holds",
                       "a wider integer type or a shorter buffer");
  }
  return Error::success();
}

/// A device variable is filled like an input buffer, within its extent.
Error Instantiator::symbol(const ArgSpec &S, ConcreteArg &Out) const {
  const DeviceGlobal *G = findGlobal(Kernel, S.Name);
  if (!G)
    return specError(S.Pos,
                     "'" + S.Name + "' is not a device variable that kernel '" +
                         Kernel.Name + "' reads",
                     "a spec loaded for this kernel");
  if (Error Err = arg(S, G->Element, Out))
    return Err;
  Out.Symbol = true;
  if (uint64_t(Out.Count) > G->Count)
    return specError(S.Length.Pos,
                     "symbol '" + S.Name + "' is given " +
                         llvm::Twine(Out.Count) + " elements but holds " +
                         llvm::Twine(G->Count),
                     "a length of at most " + llvm::Twine(G->Count));
  return Error::success();
}

static Distribution defaultDistribution(const ElementType &Type) {
  Distribution D;
  D.Kind = Type.IsInteger ? "int" : "uniform";
  D.A = Type.IsInteger ? 0 : -1;
  D.B = Type.IsBool ? 1 : Type.IsInteger ? 100 : 1;
  return D;
}

/// \p D with its parameters evaluated with this instance's sizes (the
/// spec builder checked every instance's values).
Distribution Instantiator::resolved(const Distribution &D) const {
  if (D.Params.empty())
    return D;
  Distribution Out = D;
  SpecExprEvaluator Eval(Sizes);
  double *Slots[] = {&Out.A, &Out.B};
  for (size_t I = 0; I < D.Params.size(); ++I) {
    auto V = Eval.evaluate(D.Params[I]);
    if (!V) {
      llvm::consumeError(V.takeError());
      return D;
    }
    if (I < 2)
      *Slots[I] = V->toDouble();
    else
      Out.Mod = V->toDouble();
  }
  return Out;
}

Error Instantiator::arg(const ArgSpec &Given, const ParamInfo &P,
                        ConcreteArg &Out) const {
  ArgSpec A = Given;
  if (A.Dist)
    A.Dist = resolved(*A.Dist);
  for (auto &Field : A.FieldDists)
    Field.second = resolved(Field.second);
  if (!A.AliasOf.empty()) {
    Out.Name = A.Name;
    Out.Role = ArgRole::Scalar;
    Out.Type = protocol::ElemType::U64;
    for (size_t K = 0; K < Kernel.Params.size(); ++K)
      if (Kernel.Params[K].Name == A.AliasOf)
        Out.AliasOf = K;
    return Error::success();
  }
  if (A.Null) {
    // The runner passes scalars as their bytes: eight zero bytes are NULL.
    Out.Name = A.Name;
    Out.Role = ArgRole::Scalar;
    Out.Type = protocol::ElemType::U64;
    Out.Value = 0;
    return Error::success();
  }
  auto Layout = ElementLayout::of(P, A.Pos);
  if (!Layout)
    return Layout.takeError();
  const ElementType *Type = &Layout->Lane;
  Out.Name = A.Name;
  Out.Role = A.Role;
  Out.Type = Type->Type;
  SpecExprEvaluator Eval(Sizes);
  if (A.Role == ArgRole::Scalar) {
    auto V = SpecExprEvaluator(StepSizes).evaluate(A.Value);
    if (!V)
      return V.takeError();
    // ConcreteArg::Value is a double: integers beyond 2^53 would change.
    bool Exact = !Type->IsInteger || !V->IsInteger ||
                 std::abs(V->Int) <= (int64_t(1) << 53);
    if (!Type->holds(V->toDouble()) || !Exact)
      return specError(
          A.Value.Pos,
          "scalar '" + A.Name + "' = " + numberText(V->toDouble()) +
              " does not fit its type '" + P.Type + "'",
          Type->IsInteger
              ? "an integer from " + numberText(Type->Min) + " to " +
                    numberText(Type->Max) + " (at most 2^53 in magnitude)"
              : "a finite value");
    Out.Value = V->toDouble();
    return Error::success();
  }
  auto Count = Eval.evaluateInteger(A.Length, "length of '" + A.Name + "'");
  if (!Count)
    return Count.takeError();
  int64_t Bytes = 0;
  if (*Count <= 0 ||
      __builtin_mul_overflow(*Count, int64_t(Type->Bytes * Layout->lanes()),
                             &Bytes))
    return specError(A.Length.Pos,
                     "buffer '" + A.Name + "' has " + llvm::Twine(*Count) +
                         " elements",
                     "a positive length whose size in bytes fits in 64 bits");
  Out.Count = *Count;
  if (Error Err = structureFits(A, *Layout, *Count))
    return Err;
  bool Input = A.Role != ArgRole::Out;
  if (Input)
    Out.Dist = A.Dist ? *A.Dist : defaultDistribution(*Type);
  for (const LaneField &F : Layout->Fields) {
    ConcreteField &C = Out.Fields.emplace_back();
    C.Name = F.Name;
    C.Type = F.Type.Type;
    if (!Input)
      continue;
    C.Dist = A.Dist ? *A.Dist : defaultDistribution(F.Type);
    for (const auto &[Name, D] : A.FieldDists)
      if (Name == F.Name)
        C.Dist = D;
  }
  return Error::success();
}

Error Instantiator::dims(const std::array<SpecExpr, 3> &Exprs, StringRef What,
                         std::array<int64_t, 3> &Out) const {
  SpecExprEvaluator Eval(StepSizes);
  static const char *Axis[] = {"x", "y", "z"};
  for (size_t I = 0; I < 3; ++I) {
    auto V = Eval.evaluateInteger(Exprs[I], (What + "." + Axis[I]).str());
    if (!V)
      return V.takeError();
    Out[I] = *V;
  }
  return Error::success();
}

/// CUDA's limits for every architecture since 3.0: a launch beyond them
/// fails with "invalid configuration", better caught with a position here.
Error Instantiator::launchLimits(const std::array<int64_t, 3> &Grid,
                                 const std::array<int64_t, 3> &Block,
                                 int64_t Shmem,
                                 const std::array<SpecExpr, 3> &GridExprs,
                                 const std::array<SpecExpr, 3> &BlockExprs,
                                 const SpecExpr &ShmemExpr) const {
  static const char *Axis[] = {"x", "y", "z"};
  const int64_t GridMax[] = {(int64_t(1) << 31) - 1, 65535, 65535};
  const int64_t BlockMax[] = {1024, 1024, 64};
  for (size_t D = 0; D < 3; ++D) {
    if (Grid[D] < 1 || Grid[D] > GridMax[D])
      return specError(GridExprs[D].Pos,
                       "grid." + llvm::Twine(Axis[D]) + " is " +
                           llvm::Twine(Grid[D]),
                       "a value from 1 to " + llvm::Twine(GridMax[D]));
    if (Block[D] < 1 || Block[D] > BlockMax[D])
      return specError(BlockExprs[D].Pos,
                       "block." + llvm::Twine(Axis[D]) + " is " +
                           llvm::Twine(Block[D]),
                       "a value from 1 to " + llvm::Twine(BlockMax[D]));
  }
  int64_t Threads = Block[0] * Block[1] * Block[2];
  if (Threads > 1024)
    return specError(BlockExprs[0].Pos,
                     "a block of " + llvm::Twine(Threads) + " threads",
                     "at most 1024 threads per block");
  if (Shmem < 0)
    return specError(ShmemExpr.Pos,
                     "negative shared memory size " + llvm::Twine(Shmem),
                     "a size in bytes of 0 or more");
  return Error::success();
}
