//===- SpecBuilderSequence.cpp - a mark's sequence, checked ---------------===//
//
// The repeat, swap, then/before and cooperative clauses checked against
// the kernel and the other kernels of its file: the launched kernels
// exist and are not templates, every argument suits its parameter (a
// buffer of the spec or nullptr for a pointer, a value for the others),
// swapped buffers are written ones of one element type, and the buffers
// only other kernels take get their element from the parameter they are
// passed to.
//
//===----------------------------------------------------------------------===//

#include "optiml/Spec/SpecBuilder.h"
#include "optiml/Spec/SpecDiagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

static bool isNullSpelling(StringRef S) {
  return S == "nullptr" || S == "NULL" || S == "0";
}

bool SpecBuilder::passedToLaunch(StringRef Name) const {
  for (const LaunchDraft &L : Draft.Sequence.Launches)
    for (const SpecExpr &A : L.Args)
      if (A.Text == Name)
        return true;
  return false;
}

const ParamInfo *SpecBuilder::bufferParam(StringRef Name) const {
  for (size_t I = 0; I < Spec.Args.size(); ++I) {
    const ArgSpec &A = Spec.Args[I];
    if (A.Name == Name && A.Role != ArgRole::Scalar)
      return &Kernel.Params[I];
  }
  for (size_t I = 0; I < Spec.Extras.size(); ++I)
    if (Spec.Extras[I].Name == Name)
      return &Spec.ExtraParams[I];
  return nullptr;
}

Error SpecBuilder::sequence() {
  const SequenceDraft &S = Draft.Sequence;
  if (S.empty())
    return Error::success();
  Spec.Sequence.Pos = S.Pos;
  Spec.Sequence.Cooperative = S.Cooperative.has_value();
  if (Error Err = repeat())
    return Err;
  for (const LaunchDraft &L : S.Launches) {
    auto Step = step(L);
    if (!Step)
      return Step.takeError();
    Spec.Sequence.Steps.push_back(std::move(*Step));
  }
  // A name a launch passes that is neither a parameter nor given a role.
  for (const ArgDraft &A : Draft.Args)
    if (!A.Symbol && passedToLaunch(A.Name) && !bufferParam(A.Name) &&
        llvm::none_of(Kernel.Params,
                      [&](const ParamInfo &P) { return P.Name == A.Name; }))
      return specError(A.Pos,
                       "'" + A.Name +
                           "' is passed to a launch of the sequence but "
                           "is not a buffer",
                       "in(...), out(...) or inout(...) with a length");
  return swaps();
}

Error SpecBuilder::repeat() {
  const SequenceDraft &S = Draft.Sequence;
  SequenceSpec &Out = Spec.Sequence;
  if (S.Count) {
    Out.Repeats = true;
    Out.First = SpecExpr{"1", S.Count->Pos};
    Out.Last = *S.Count;
    return Error::success();
  }
  if (!S.Last)
    return Error::success();
  const std::string &Var = S.Var->Text;
  bool Taken = llvm::any_of(
      Spec.Sizes, [&](const auto &Size) { return Size.first == Var; });
  if (Taken || Var == "ceil_div" || Var == "min" || Var == "max")
    return specError(S.Var->Pos,
                     "the repeat variable '" + Var + "' is " +
                         (Taken ? "already a size" : "a function name"),
                     "a name of its own, e.g. repeat(d = 1 .. N)");
  Out.Repeats = true;
  Out.Var = Var;
  Out.First = *S.First;
  Out.Last = *S.Last;
  return Error::success();
}

Expected<StepSpec> SpecBuilder::step(const LaunchDraft &L) {
  const SiblingKernel *K = Kernel.sibling(L.Kernel.Text);
  if (!K) {
    std::vector<std::string> Names;
    if (Kernel.FileKernels)
      for (const SiblingKernel &Other : *Kernel.FileKernels)
        if (Other.QualifiedName != Kernel.QualifiedName)
          Names.push_back(Other.Name);
    return specError(L.Kernel.Pos,
                     "'" + L.Kernel.Text + "' is not a kernel of this file",
                     Names.empty() ? "another __global__ function defined in "
                                     "the file"
                                   : "one of " + llvm::join(Names, ", "));
  }
  if (K->QualifiedName == Kernel.QualifiedName)
    return specError(L.Kernel.Pos,
                     "a launch of kernel '" + K->Name + "' itself",
                     "repeat(...) to launch the marked kernel more than once");
  if (K->IsTemplate)
    return specError(L.Kernel.Pos,
                     "kernel '" + K->Name +
                         "' is a template, which a sequence cannot launch yet",
                     "a kernel that is not a template");
  if (L.Args.size() != K->Params.size())
    return specError(L.Kernel.Pos,
                     "the launch of '" + K->Name + "' passes " +
                         llvm::Twine(L.Args.size()) + " argument(s)",
                     llvm::Twine(K->Params.size()) + " (its parameters: " +
                         llvm::join(llvm::map_range(K->Params,
                                                    [](const ParamInfo &P) {
                                                      return P.Name;
                                                    }),
                                    ", ") +
                         ")");
  StepSpec Out;
  Out.Kernel = K->QualifiedName;
  auto Known = llvm::find(Spec.Companions, K->QualifiedName);
  Out.Companion = Known - Spec.Companions.begin() + 1;
  if (Known == Spec.Companions.end())
    Spec.Companions.push_back(K->QualifiedName);
  for (size_t I = 0; I < 3; ++I) {
    Out.Grid[I] =
        I < L.Grid.Dims.size() ? L.Grid.Dims[I] : SpecExpr{"1", L.Grid.Pos};
    Out.Block[I] =
        I < L.Block.Dims.size() ? L.Block.Dims[I] : SpecExpr{"1", L.Block.Pos};
  }
  Out.SharedMemory = L.SharedMemory.value_or(SpecExpr{"0", L.Kernel.Pos});
  Out.Cooperative = L.Cooperative;
  Out.Before = L.Before;
  Out.Pos = L.Kernel.Pos;
  for (size_t I = 0; I < L.Args.size(); ++I)
    if (Error Err = stepArg(L.Args[I], K->Params[I], *K, Out))
      return Err;
  return Out;
}

/// The buffers a launch passes that are not parameters of the marked
/// kernel become extra buffers, with the element of the parameter they
/// are first passed to.
Error SpecBuilder::stepArg(const SpecExpr &Arg, const ParamInfo &P,
                           const SiblingKernel &K, StepSpec &Out) {
  StepArgSpec A;
  std::string Where = "parameter '" + P.Name + "' of '" + K.Name + "'";
  const ArgDraft *D = nullptr;
  for (const ArgDraft &Candidate : Draft.Args)
    if (Candidate.Name == Arg.Text && Candidate.Role && !Candidate.Symbol)
      D = &Candidate;
  bool IsParam = llvm::any_of(
      Kernel.Params, [&](const ParamInfo &Q) { return Q.Name == Arg.Text; });
  if (D && !IsParam && !bufferParam(Arg.Text)) {
    if (*D->Role == ArgRole::Scalar || !D->Length)
      return specError(D->Pos,
                       "'" + Arg.Text + "' is passed to " + Where +
                           " but is not a buffer",
                       "in(...), out(...) or inout(...) with a length");
    ArgSpec E;
    E.Name = D->Name;
    E.Role = *D->Role;
    E.Length = *D->Length;
    E.Pos = D->Pos;
    Spec.Extras.push_back(std::move(E));
    Spec.ExtraParams.push_back(P);
  }
  if (const ParamInfo *B = bufferParam(Arg.Text)) {
    if (!P.IsPointer)
      return specError(Arg.Pos,
                       "buffer '" + Arg.Text + "' is passed to " + Where +
                           " (type '" + P.Type + "'), which is not a pointer",
                       "a value for it");
    if (B->CanonicalElement != P.CanonicalElement)
      return specError(Arg.Pos,
                       "buffer '" + Arg.Text + "' holds '" +
                           B->CanonicalElement + "' but " + Where +
                           " points to '" + P.CanonicalElement + "'",
                       "a buffer of the parameter's element type");
    A.Buffer = Arg.Text;
  } else if (P.IsPointer) {
    if (!isNullSpelling(Arg.Text))
      return specError(Arg.Pos,
                       "'" + Arg.Text + "' is passed to pointer " + Where +
                           " but is not a buffer of the spec",
                       "the name of an in, out or inout buffer, or nullptr");
    A.Null = true;
  } else {
    auto T = elementTypeOf(P, Arg.Pos);
    if (!T)
      return T.takeError();
    A.Value = Arg;
    A.Type = T->Type;
  }
  Out.Args.push_back(std::move(A));
  return Error::success();
}

/// Swapped buffers trade places after each repetition, so both are
/// written by some launch: neither may be an unchanged input.
Error SpecBuilder::swaps() {
  for (const auto &[A, B] : Draft.Sequence.Swaps) {
    for (const SpecExpr *Name : {&A, &B}) {
      const ParamInfo *P = bufferParam(Name->Text);
      if (!P)
        return specError(Name->Pos,
                         "swap of '" + Name->Text +
                             "', which is not a buffer of the spec",
                         "two in, out or inout buffers");
      for (const ArgDraft &D : Draft.Args)
        if (D.Name == Name->Text && D.Role == ArgRole::In)
          return specError(Name->Pos,
                           "swap of '" + Name->Text +
                               "', an input: after the first swap the "
                               "launches write it",
                           "inout(" + Name->Text + "[...])");
    }
    if (A.Text == B.Text)
      return specError(B.Pos, "a swap of '" + A.Text + "' with itself",
                       "two different buffers");
    if (bufferParam(A.Text)->CanonicalElement !=
        bufferParam(B.Text)->CanonicalElement)
      return specError(B.Pos,
                       "swap of '" + A.Text + "' and '" + B.Text +
                           "', whose elements differ",
                       "two buffers of one element type");
    Spec.Sequence.Swaps.push_back({A.Text, B.Text});
    if (!Spec.Sequence.Repeats)
      return specError(A.Pos,
                       "swap(" + A.Text + ", " + B.Text +
                           ") without repeat(...), after which it would "
                           "happen",
                       "repeat(COUNT) or repeat(VAR = FIRST .. LAST) with it");
  }
  return Error::success();
}
