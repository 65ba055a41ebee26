//===- KernelSpec.cpp - load a kernel spec and instantiate it ------------===//

#include "optiml/Spec/KernelSpec.h"
#include "optiml/Spec/ElementLayout.h"
#include "optiml/Spec/InstanceSizes.h"
#include "optiml/Spec/MarkLocator.h"
#include "optiml/Spec/PragmaSpecParser.h"
#include "optiml/Spec/SidecarSpecParser.h"
#include "optiml/Spec/SpecBuilder.h"
#include "optiml/Spec/SpecDiagnostic.h"
#include "optiml/Spec/SpecExprEvaluator.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace optiml;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace {

/// Turns one instance's expressions into numbers, checking each against
/// what the runner and the hardware accept.
class Instantiator {
public:
  Instantiator(const KernelSpec &Spec, const KernelInfo &Kernel)
      : Spec(Spec), Kernel(Kernel) {}

  Expected<ConcreteInstance> run(const InstanceSpec *Instance);

private:
  Error arg(const ArgSpec &A, const ParamInfo &P, ConcreteArg &Out) const;
  Error symbol(const ArgSpec &S, ConcreteArg &Out) const;
  Error dims(const std::array<SpecExpr, 3> &Exprs, StringRef What,
             std::array<int64_t, 3> &Out) const;
  Error launchLimits(const ConcreteInstance &I) const;
  Error withContext(Error Err, const InstanceSpec *Instance) const;

  const KernelSpec &Spec;
  const KernelInfo &Kernel;
  std::map<std::string, int64_t> Sizes;
};

} // namespace

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
  for (const ArgSpec &S : Spec.Symbols)
    if (Error Err = symbol(S, I.Args.emplace_back()))
      return withContext(std::move(Err), Instance);
  SpecExprEvaluator Eval(Sizes);
  auto Shmem = Eval.evaluateInteger(Spec.SharedMemory, "shared memory size");
  if (!Shmem)
    return withContext(Shmem.takeError(), Instance);
  I.SharedMemory = *Shmem;
  if (Error Err = dims(Spec.Grid, "grid", I.Grid))
    return withContext(std::move(Err), Instance);
  if (Error Err = dims(Spec.Block, "block", I.Block))
    return withContext(std::move(Err), Instance);
  if (Error Err = launchLimits(I))
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

Error Instantiator::arg(const ArgSpec &A, const ParamInfo &P,
                        ConcreteArg &Out) const {
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
    auto V = Eval.evaluate(A.Value);
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
  SpecExprEvaluator Eval(Sizes);
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
Error Instantiator::launchLimits(const ConcreteInstance &I) const {
  static const char *Axis[] = {"x", "y", "z"};
  const int64_t GridMax[] = {(int64_t(1) << 31) - 1, 65535, 65535};
  const int64_t BlockMax[] = {1024, 1024, 64};
  for (size_t D = 0; D < 3; ++D) {
    if (I.Grid[D] < 1 || I.Grid[D] > GridMax[D])
      return specError(Spec.Grid[D].Pos,
                       "grid." + llvm::Twine(Axis[D]) + " is " +
                           llvm::Twine(I.Grid[D]),
                       "a value from 1 to " + llvm::Twine(GridMax[D]));
    if (I.Block[D] < 1 || I.Block[D] > BlockMax[D])
      return specError(Spec.Block[D].Pos,
                       "block." + llvm::Twine(Axis[D]) + " is " +
                           llvm::Twine(I.Block[D]),
                       "a value from 1 to " + llvm::Twine(BlockMax[D]));
  }
  int64_t Threads = I.Block[0] * I.Block[1] * I.Block[2];
  if (Threads > 1024)
    return specError(Spec.Block[0].Pos,
                     "a block of " + llvm::Twine(Threads) + " threads",
                     "at most 1024 threads per block");
  if (I.SharedMemory < 0)
    return specError(Spec.SharedMemory.Pos,
                     "negative shared memory size " +
                         llvm::Twine(I.SharedMemory),
                     "a size in bytes of 0 or more");
  return Error::success();
}

std::string KernelSpec::specialization() const {
  if (TemplateArgs.empty())
    return "";
  std::vector<std::string> Values;
  for (const auto &A : TemplateArgs)
    Values.push_back(A.second);
  return "<" + llvm::join(Values, ", ") + ">";
}

/// \p Text with each whole-word \p Name replaced by \p Value.
static std::string substitute(StringRef Text, StringRef Name, StringRef Value) {
  std::string Out;
  auto IsWord = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (size_t I = 0; I < Text.size();) {
    bool Starts = Text.substr(I).starts_with(Name) &&
                  (I == 0 || !IsWord(Text[I - 1])) &&
                  (I + Name.size() == Text.size() ||
                   !IsWord(Text[I + Name.size()]));
    if (Starts) {
      Out += Value;
      I += Name.size();
    } else {
      Out += Text[I++];
    }
  }
  return Out;
}

const DeviceGlobal *optiml::findGlobal(const KernelInfo &Kernel,
                                       StringRef Name) {
  for (const DeviceGlobal &G : Kernel.Globals)
    if (G.Element.Name == Name || G.QualifiedName == Name)
      return &G;
  return nullptr;
}

KernelInfo optiml::specializeKernel(
    const KernelInfo &Kernel,
    llvm::ArrayRef<std::pair<std::string, std::string>> TemplateArgs) {
  KernelInfo Out = Kernel;
  if (TemplateArgs.empty())
    return Out;
  std::vector<std::string> Values;
  for (ParamInfo &P : Out.Params) {
    for (const auto &[Name, Value] : TemplateArgs) {
      P.Type = substitute(P.Type, Name, Value);
      P.PointeeType = substitute(P.PointeeType, Name, Value);
    }
    // A dependent canonical type (`type-parameter-0-0`) is the written
    // one with the arguments in; a typedef's was resolved by Clang.
    if (!llvm::StringRef(P.CanonicalElement).contains("type-parameter"))
      continue;
    StringRef Element = P.IsPointer ? StringRef(P.PointeeType) : P.Type;
    Element.consume_front("const ");
    Element.consume_back(" const");
    P.CanonicalElement = Element.str();
  }
  for (const auto &A : TemplateArgs)
    Values.push_back(A.second);
  Out.Specialization = "<" + llvm::join(Values, ", ") + ">";
  return Out;
}

Expected<std::vector<ConcreteInstance>>
KernelSpec::instantiate(const KernelInfo &Generic) const {
  std::vector<ConcreteInstance> Out;
  KernelInfo Kernel = specializeKernel(Generic, TemplateArgs);
  Instantiator In(*this, Kernel);
  auto Default = In.run(nullptr);
  if (!Default)
    return Default.takeError();
  Out.push_back(std::move(*Default));
  for (const InstanceSpec &I : Instances) {
    auto Named = In.run(&I);
    if (!Named)
      return Named.takeError();
    Out.push_back(std::move(*Named));
  }
  return Out;
}

/// The mark's draft, with exact positions when its file can be read.
static Expected<SpecDraft> markDraft(const KernelMark &Mark,
                                     StringRef SourcePath) {
  StringRef File =
      Mark.Pos.File.empty() ? SourcePath : StringRef(Mark.Pos.File);
  auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buffer)
    return PragmaSpecParser::parse(Mark, MarkLocator(Mark));
  return PragmaSpecParser::parse(Mark,
                                 MarkLocator(Mark, (*Buffer)->getBuffer()));
}

static Error noSpec(const KernelInfo &Kernel, StringRef Sidecar) {
  std::string What = "kernel '" + Kernel.Name + "' has no spec";
  if (!Sidecar.empty())
    What += " (no mark, and no entry in '" + Sidecar.str() + "')";
  return specError(Kernel.Pos, What,
                   "a '#pragma optiml kernel sizes(...) in(...) out(...) "
                   "grid(...) block(...)' line before it, or --spec=FILE "
                   "with an entry \"kernels\": {\"" +
                       Kernel.Name + "\": {...}}");
}

/// The merged draft: the mark's, with the sidecar's fields over it.
static Expected<std::optional<SpecDraft>>
draftOf(const KernelInfo &Kernel, StringRef SourcePath, StringRef Sidecar) {
  std::optional<SpecDraft> Draft;
  if (Kernel.Mark) {
    auto Mark = markDraft(*Kernel.Mark, SourcePath);
    if (!Mark)
      return Mark.takeError();
    Draft = std::move(*Mark);
  }
  if (Sidecar.empty())
    return Draft;
  auto Over = SidecarSpecParser::load(Sidecar, Kernel);
  if (!Over)
    return Over.takeError();
  if (*Over && Draft)
    Draft->overrideWith(**Over);
  else if (*Over)
    Draft = std::move(*Over);
  return Draft;
}

/// \p SpecPath, else the source's `<file>.optiml.json` when it exists.
static std::string sidecarPath(StringRef SourcePath, StringRef SpecPath) {
  if (!SpecPath.empty() || SourcePath.empty())
    return SpecPath.str();
  std::string Beside = (SourcePath + ".optiml.json").str();
  return llvm::sys::fs::exists(Beside) ? Beside : "";
}

Expected<std::optional<KernelSpec>>
optiml::findKernelSpec(const KernelInfo &Kernel, StringRef SourcePath,
                       StringRef SpecPath) {
  std::string Sidecar = sidecarPath(SourcePath, SpecPath);
  auto Draft = draftOf(Kernel, SourcePath, Sidecar);
  if (!Draft)
    return Draft.takeError();
  if (!*Draft)
    return std::nullopt;
  auto Spec = SpecBuilder::build(**Draft, Kernel);
  if (!Spec)
    return Spec.takeError();
  // Instantiating every instance now reports a bad expression (an unknown
  // size, a division by zero, an empty buffer) when the spec is loaded.
  if (auto Instances = Spec->instantiate(Kernel); !Instances)
    return Instances.takeError();
  return std::optional<KernelSpec>(std::move(*Spec));
}

Expected<KernelSpec> optiml::loadKernelSpec(const KernelInfo &Kernel,
                                            StringRef SourcePath,
                                            StringRef SpecPath) {
  auto Spec = findKernelSpec(Kernel, SourcePath, SpecPath);
  if (!Spec)
    return Spec.takeError();
  if (*Spec)
    return std::move(**Spec);
  return noSpec(Kernel, sidecarPath(SourcePath, SpecPath));
}
