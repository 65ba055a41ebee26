//===- SpecBuilder.cpp - a checked kernel spec from a draft --------------===//

#include "optiml/Spec/SpecBuilder.h"
#include "optiml/Spec/ElementLayout.h"
#include "optiml/Spec/InstanceSizes.h"
#include "optiml/Spec/SpecDiagnostic.h"
#include "optiml/Spec/SpecExprEvaluator.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <set>

using namespace optiml;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

Expected<KernelSpec> SpecBuilder::build(const SpecDraft &Draft,
                                        const KernelInfo &Generic) {
  auto Template = templateArgs(Draft, Generic);
  if (!Template)
    return Template.takeError();
  // Parameter types are checked as the chosen arguments make them.
  KernelInfo Kernel = specializeKernel(Generic, *Template);
  SpecBuilder B(Draft, Kernel);
  B.Spec.TemplateArgs = std::move(*Template);
  B.Spec.Kernel =
      Kernel.QualifiedName.empty() ? Kernel.Name : Kernel.QualifiedName;
  B.Spec.Sizes = Draft.Sizes;
  B.Spec.Instances = Draft.Instances;
  if (Error Err = B.required())
    return Err;
  // The checks that do not depend on each other all report, so that one
  // run shows every error; distributions need the arguments' types.
  Error Found = B.args();
  B.launch();
  if (!Found)
    Found = B.sequence();
  Found = llvm::joinErrors(std::move(Found), B.tolerances());
  Found = llvm::joinErrors(std::move(Found), B.seeds());
  if (Found)
    return Found;
  if (Error Err = B.distributions())
    return Err;
  return std::move(B.Spec);
}

/// The top-level comma-separated items of `<float, 16>`.
static std::vector<std::string> splitArguments(StringRef Text) {
  Text = Text.trim();
  if (Text.consume_front("<"))
    Text.consume_back(">");
  std::vector<std::string> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= Text.size(); ++I) {
    char C = I < Text.size() ? Text[I] : ',';
    Depth += (C == '<' || C == '(') - (C == '>' || C == ')');
    if (C == ',' && Depth == 0) {
      Out.push_back(Text.slice(Start, I).trim().str());
      Start = I + 1;
    }
  }
  return Out;
}

/// The default of a template parameter as written (`int BS = 256`), or "".
static std::string defaultOf(StringRef Parameter) {
  size_t Eq = Parameter.find('=');
  return Eq == StringRef::npos ? "" : Parameter.substr(Eq + 1).trim().str();
}

Expected<std::vector<std::pair<std::string, std::string>>>
SpecBuilder::templateArgs(const SpecDraft &Draft, const KernelInfo &Kernel) {
  const auto &Names = Kernel.TemplateParameterNames;
  for (const auto &[Name, Value] : Draft.TemplateArgs)
    if (!llvm::is_contained(Names, Name))
      return specError(
          Value.Pos,
          Names.empty()
              ? "kernel '" + Kernel.Name + "' is not a template"
              : "'" + Name + "' is not a template parameter of '" +
                    Kernel.Name + "'",
          Names.empty() ? "no template(...) clause"
                        : "one of " + llvm::join(Names, ", "));
  // The file's own instantiation: its explicit one, else the one its
  // launches make, when they all make the same.
  std::vector<std::string> Explicit, Implicit;
  for (const Instantiation &I : Kernel.Instantiations)
    if (I.Kind == "explicit" && Explicit.empty())
      Explicit = splitArguments(I.Arguments);
  std::set<std::string> ImplicitArgs;
  for (const Instantiation &I : Kernel.Instantiations)
    if (I.Kind == "implicit")
      ImplicitArgs.insert(I.Arguments);
  if (Explicit.empty() && ImplicitArgs.size() == 1)
    Explicit = splitArguments(*ImplicitArgs.begin());
  std::vector<std::pair<std::string, std::string>> Out;
  for (size_t I = 0; I < Names.size(); ++I) {
    auto Given = llvm::find_if(Draft.TemplateArgs,
                               [&](const auto &A) { return A.first == Names[I]; });
    std::string Value =
        Given != Draft.TemplateArgs.end() ? Given->second.Text
        : I < Explicit.size() && Explicit.size() == Names.size()
            ? Explicit[I]
            : defaultOf(Kernel.TemplateParameters[I]);
    if (Value.empty())
      return specError(
          Draft.Pos,
          "kernel '" + Kernel.Name +
              "' is a template and its spec gives no value for '" + Names[I] +
              "'" +
              (ImplicitArgs.size() > 1
                   ? " (the file instantiates it as " +
                         llvm::join(ImplicitArgs, " and ") + ")"
                   : ""),
          "template(" + Names[I] +
              " = ...) in its mark, or one instantiation in the file");
    Out.push_back({Names[I], Value});
  }
  return Out;
}

Error SpecBuilder::missing(StringRef Clause, StringRef Form) const {
  if (Draft.From == SpecDraft::Origin::Sidecar)
    return specError(Draft.Pos,
                     "kernel '" + Kernel.Name + "' has no \"" + Clause + "\"",
                     "a \"" + Clause + "\" field in its sidecar entry");
  return specError(Draft.Pos,
                   "missing required clause '" + Clause + "' for kernel '" +
                       Kernel.Name + "'",
                   Form);
}

Error SpecBuilder::required() const {
  if (Draft.Sizes.empty())
    return missing("sizes", "sizes(NAME = EXPR, ...), e.g. sizes(N = 1 << 20)");
  if (!Draft.Grid)
    return missing("grid", "grid(X[, Y[, Z]]), e.g. grid((N + 255) / 256)");
  if (!Draft.Block)
    return missing("block", "block(X[, Y[, Z]]), e.g. block(256)");
  bool AnyRole = llvm::any_of(
      Draft.Args, [](const ArgDraft &A) { return A.Role.has_value(); });
  if (!AnyRole && !Kernel.Params.empty())
    return missing(Draft.From == SpecDraft::Origin::Sidecar ? "args" : "in",
                   "in(...), out(...), inout(...) or scalar(...) giving "
                   "every parameter a role");
  return Error::success();
}

static std::string paramNames(const KernelInfo &Kernel) {
  std::vector<StringRef> Names;
  for (const ParamInfo &P : Kernel.Params)
    Names.push_back(P.Name);
  return Names.empty() ? "none" : llvm::join(Names, ", ");
}

/// Every argument is checked, each error joined to the others.
Error SpecBuilder::args() {
  Error Found = Error::success();
  auto Add = [&](Error E) {
    Found = llvm::joinErrors(std::move(Found), std::move(E));
  };
  for (const ArgDraft &A : Draft.Args)
    if (!A.Symbol && !passedToLaunch(A.Name) &&
        llvm::none_of(Kernel.Params,
                      [&](const ParamInfo &P) { return P.Name == A.Name; }))
      Add(specError(A.Pos,
                    "'" + A.Name + "' is not a parameter of kernel '" +
                        Kernel.Name + "'",
                    "one of its parameters: " + paramNames(Kernel)));
  bool AnyOutput = false;
  for (const ParamInfo &P : Kernel.Params) {
    auto A = arg(P);
    if (!A) {
      Add(A.takeError());
      continue;
    }
    AnyOutput |= A->Role == ArgRole::Out || A->Role == ArgRole::InOut;
    Spec.Args.push_back(std::move(*A));
  }
  for (const ArgDraft &D : Draft.Args) {
    if (!D.Symbol)
      continue;
    auto S = symbol(D);
    if (S)
      Spec.Symbols.push_back(std::move(*S));
    else
      Add(S.takeError());
  }
  if (!AnyOutput && !Found)
    Add(specError(Draft.Pos,
                  "kernel '" + Kernel.Name + "' has no out or inout buffer",
                  "at least one output buffer to verify"));
  return Found;
}

Expected<ArgSpec> SpecBuilder::arg(const ParamInfo &P) {
  const ArgDraft *D = nullptr;
  for (const ArgDraft &A : Draft.Args)
    if (A.Name == P.Name && A.Role)
      D = &A;
  bool Sidecar = Draft.From == SpecDraft::Origin::Sidecar;
  if (!D)
    return specError(Draft.Pos,
                     "parameter '" + P.Name + "' of kernel '" + Kernel.Name +
                         "' has no role",
                     Sidecar ? "\"args\": {\"" + P.Name +
                                   "\": {\"role\": \"in\", ...}}"
                             : "'" + P.Name +
                                   "' in one of in(...), out(...), "
                                   "inout(...) or scalar(...)");
  ArgRole Role = *D->Role;
  std::string Quoted = "'" + P.Name + "' (type '" + P.Type + "')";
  if (D->Null)
    return nullArg(P, *D);
  if (!D->AliasOf.empty())
    return aliasArg(P, *D);
  if (Role != ArgRole::Scalar && !P.IsPointer)
    return specError(D->Pos,
                     Quoted + " is not a pointer but is given the role '" +
                         roleName(Role) + "'",
                     "the role 'scalar' with a value, e.g. scalar(" + P.Name +
                         " = N)");
  if (Role == ArgRole::Scalar && P.IsPointer)
    return specError(
        D->Pos, Quoted + " is a pointer but is given the role 'scalar'",
        "in, out or inout with a length, e.g. in(" + P.Name + "[N])");
  // In a sequence another launch may write what this kernel only reads.
  bool WrittenElsewhere =
      passedToLaunch(P.Name) ||
      llvm::any_of(Draft.Sequence.Swaps, [&](const auto &S) {
        return S.first.Text == P.Name || S.second.Text == P.Name;
      });
  if (P.IsConst && !WrittenElsewhere &&
      (Role == ArgRole::Out || Role == ArgRole::InOut))
    return specError(D->Pos,
                     Quoted + " points to const data but is given the role '" +
                         roleName(Role) + "'",
                     "the role 'in' for a buffer the kernel cannot write");
  if (auto T = elementTypeOf(P, D->Pos); !T)
    return T.takeError();
  const std::optional<SpecExpr> &Expr =
      Role == ArgRole::Scalar ? D->Value : D->Length;
  if (!Expr)
    return specError(
        D->Pos,
        (Role == ArgRole::Scalar ? "scalar '" : "buffer '") + P.Name +
            "' has no " + (Role == ArgRole::Scalar ? "value" : "length"),
        Sidecar ? (Role == ArgRole::Scalar ? "\"value\"" : "\"length\"")
                : (Role == ArgRole::Scalar ? "NAME = VALUE" : "NAME[LENGTH]"));
  const DistributionDraft *AnyDist = D->Dist ? &*D->Dist
                                     : D->FieldDists.empty()
                                         ? nullptr
                                         : &D->FieldDists.front().second;
  if (AnyDist && (Role == ArgRole::Out || Role == ArgRole::Scalar))
    return specError(AnyDist->Pos,
                     "distribution for '" + P.Name + "', which is " +
                         (Role == ArgRole::Out ? "an output" : "a scalar"),
                     "distributions for in and inout buffers only");
  ArgSpec A;
  A.Name = P.Name;
  A.Role = Role;
  (Role == ArgRole::Scalar ? A.Value : A.Length) = *Expr;
  A.Pos = D->Pos;
  return A;
}

/// `null(p)`: a pointer passed as NULL, checked as what it is: a pointer,
/// with nothing to fill.
Expected<ArgSpec> SpecBuilder::nullArg(const ParamInfo &P, const ArgDraft &D) {
  if (!P.IsPointer)
    return specError(D.Pos,
                     "'" + P.Name + "' (type '" + P.Type +
                         "') is not a pointer but is given null",
                     "null(...) for pointer parameters only");
  if (D.Dist || !D.FieldDists.empty())
    return specError(D.Pos, "distribution for '" + P.Name + "', which is null",
                     "distributions for in and inout buffers only");
  ArgSpec A;
  A.Name = P.Name;
  A.Role = ArgRole::Scalar;
  A.Null = true;
  A.Value = SpecExpr{"0", D.Pos};
  A.Pos = D.Pos;
  return A;
}

/// `alias(out = in)`: both pointers, and the one passed is a buffer of
/// its own (not null, not itself an alias).
Expected<ArgSpec> SpecBuilder::aliasArg(const ParamInfo &P, const ArgDraft &D) {
  const ArgDraft *Target = nullptr;
  for (const ArgDraft &A : Draft.Args)
    if (A.Name == D.AliasOf && A.Role && !A.Symbol)
      Target = &A;
  bool TargetPointer = llvm::any_of(Kernel.Params, [&](const ParamInfo &Q) {
    return Q.Name == D.AliasOf && Q.IsPointer;
  });
  if (!P.IsPointer)
    return specError(D.Pos,
                     "'" + P.Name + "' (type '" + P.Type +
                         "') is not a pointer but is given alias",
                     "alias(...) for pointer parameters only");
  if (!Target || !TargetPointer || *Target->Role == ArgRole::Scalar)
    return specError(D.Pos,
                     "'" + P.Name + "' is an alias of '" + D.AliasOf +
                         "', which is not a buffer parameter of kernel '" +
                         Kernel.Name + "'",
                     "alias(" + P.Name +
                         " = BUFFER) naming an in, out or inout parameter");
  if (D.Dist || !D.FieldDists.empty())
    return specError(D.Pos, "distribution for '" + P.Name + "', an alias",
                     "the distribution on '" + D.AliasOf + "'");
  ArgSpec A;
  A.Name = P.Name;
  A.Role = ArgRole::Scalar;
  A.AliasOf = D.AliasOf;
  A.Pos = D.Pos;
  return A;
}

/// `symbol(coef)`: a device variable the kernel reads, filled as an input
/// buffer; without a length, all of it.
Expected<ArgSpec> SpecBuilder::symbol(const ArgDraft &D) {
  const DeviceGlobal *G = findGlobal(Kernel, D.Name);
  if (!G) {
    std::vector<std::string> Names;
    for (const DeviceGlobal &Known : Kernel.Globals)
      Names.push_back(Known.Element.Name);
    return specError(D.Pos,
                     "'" + D.Name +
                         "' is not a __constant__ or __device__ "
                         "variable that kernel '" +
                         Kernel.Name + "' reads",
                     Names.empty() ? "no symbol(...): the kernel reads none"
                                   : "one of " + llvm::join(Names, ", "));
  }
  for (const DeviceGlobal &Other : Kernel.Globals)
    if (&Other != G && Other.Element.Name == G->Element.Name)
      return specError(D.Pos,
                       "two variables that kernel '" + Kernel.Name +
                           "' reads are named '" + D.Name + "' (" +
                           G->QualifiedName + " and " + Other.QualifiedName +
                           ")",
                       "one symbol per name; rename one of them");
  if (G->Count == 0)
    return specError(D.Pos,
                     "symbol '" + D.Name + "' (type '" + G->Element.Type +
                         "') has no known size",
                     "a variable of complete type");
  if (auto T = elementTypeOf(G->Element, D.Pos); !T)
    return T.takeError();
  ArgSpec A;
  A.Name = D.Name;
  A.Role = ArgRole::In;
  A.Symbol = true;
  A.Length = D.Length.value_or(SpecExpr{std::to_string(G->Count), D.Pos});
  A.Pos = D.Pos;
  return A;
}

Expected<ElementType> SpecBuilder::elementTypeOf(const ParamInfo &P,
                                                 const SourcePos &Pos) {
  auto L = ElementLayout::of(P, Pos);
  if (!L)
    return L.takeError();
  return L->Lane;
}

void SpecBuilder::launch() {
  auto Fill = [](const DimsDraft &D, std::array<SpecExpr, 3> &Out) {
    for (size_t I = 0; I < 3; ++I)
      Out[I] = I < D.Dims.size() ? D.Dims[I] : SpecExpr{"1", D.Pos};
  };
  Fill(*Draft.Grid, Spec.Grid);
  Fill(*Draft.Block, Spec.Block);
  Spec.SharedMemory = Draft.SharedMemory.value_or(SpecExpr{"0", Draft.Pos});
}

Error SpecBuilder::tolerances() {
  std::map<std::string, int64_t> NoSizes;
  SpecExprEvaluator Eval(NoSizes);
  std::pair<const std::optional<SpecExpr> *, double *> Fields[] = {
      {&Draft.RTol, &Spec.RTol},
      {&Draft.ATol, &Spec.ATol},
      {&Draft.NormTol, &Spec.NormTol}};
  for (auto [Given, Out] : Fields) {
    if (!*Given)
      continue;
    auto V = Eval.evaluate(**Given);
    if (!V)
      return V.takeError();
    if (V->toDouble() < 0)
      return specError((*Given)->Pos,
                       "negative tolerance " + numberText(V->toDouble()),
                       "a tolerance of 0 or more");
    *Out = V->toDouble();
  }
  return Error::success();
}

Error SpecBuilder::seeds() {
  if (!Draft.Seeds)
    return Error::success();
  std::map<std::string, int64_t> NoSizes;
  SpecExprEvaluator Eval(NoSizes);
  Spec.Seeds.clear();
  for (const SpecExpr &E : Draft.Seeds->Dims) {
    auto V = Eval.evaluateInteger(E, "seed");
    if (!V)
      return V.takeError();
    if (*V < 0 || llvm::is_contained(Spec.Seeds, uint64_t(*V)))
      return specError(E.Pos,
                       *V < 0 ? "negative seed " + llvm::Twine(*V)
                              : "seed " + llvm::Twine(*V) + " is repeated",
                       "distinct seeds of 0 or more");
    Spec.Seeds.push_back(uint64_t(*V));
  }
  if (Spec.Seeds.size() < 2)
    return specError(Draft.Seeds->Pos,
                     "only " + llvm::Twine(Spec.Seeds.size()) +
                         " seed for kernel '" + Kernel.Name + "'",
                     "at least two seeds, e.g. seeds(1, 2): a candidate must "
                     "pass on two different inputs");
  return Error::success();
}

Error SpecBuilder::distributions() {
  std::vector<std::map<std::string, int64_t>> Envs;
  auto Default = instanceSizes(Spec.Sizes, nullptr);
  if (!Default)
    return Default.takeError();
  Envs.push_back(std::move(*Default));
  for (const InstanceSpec &I : Spec.Instances) {
    auto Sizes = instanceSizes(Spec.Sizes, &I);
    if (!Sizes)
      return Sizes.takeError();
    Envs.push_back(std::move(*Sizes));
  }
  for (size_t I = 0; I < Spec.Args.size(); ++I)
    if (Error Err = argDistributions(Spec.Args[I], Kernel.Params[I], Envs))
      return Err;
  for (ArgSpec &S : Spec.Symbols)
    if (Error Err =
            argDistributions(S, findGlobal(Kernel, S.Name)->Element, Envs))
      return Err;
  for (size_t I = 0; I < Spec.Extras.size(); ++I)
    if (Error Err = argDistributions(Spec.Extras[I], Spec.ExtraParams[I], Envs))
      return Err;
  return Error::success();
}

Error SpecBuilder::argDistributions(
    ArgSpec &A, const ParamInfo &P,
    const std::vector<std::map<std::string, int64_t>> &Envs) const {
  const ArgDraft *D = nullptr;
  for (const ArgDraft &Candidate : Draft.Args)
    if (Candidate.Name == A.Name &&
        (Candidate.Dist || !Candidate.FieldDists.empty()))
      D = &Candidate;
  if (!D)
    return Error::success();
  auto Layout = ElementLayout::of(P, A.Pos);
  if (!Layout)
    return Layout.takeError();
  if (D->Dist) {
    auto Dist = distribution(*D->Dist, Envs);
    if (!Dist)
      return Dist.takeError();
    // A buffer's distribution fills every field, so it must suit each.
    std::vector<LaneField> Lanes = Layout->Fields;
    if (Lanes.empty())
      Lanes.push_back({"", Layout->Lane});
    for (const LaneField &F : Lanes)
      if (Error Err = checkEach(*Dist, F.Type,
                                F.Name.empty() ? A.Name : A.Name + "." + F.Name,
                                D->Dist->Pos))
        return Err;
    A.Dist = std::move(Dist->front());
  }
  for (const auto &[Field, FD] : D->FieldDists)
    if (Error Err = fieldDistribution(A, *Layout, Field, FD, Envs))
      return Err;
  return Error::success();
}

Error SpecBuilder::fieldDistribution(
    ArgSpec &A, const ElementLayout &Layout, StringRef Field,
    const DistributionDraft &D,
    const std::vector<std::map<std::string, int64_t>> &Envs) const {
  std::vector<const LaneField *> Selected = Layout.select(Field);
  if (Selected.empty()) {
    std::vector<std::string> Names;
    for (const LaneField &F : Layout.Fields)
      Names.push_back(F.Name);
    return specError(
        D.Pos,
        "'" + A.Name + "." + Field + "': " +
            (Layout.Fields.empty()
                 ? "the elements of '" + A.Name + "' are numbers, not structs"
                 : "no field '" + Field.str() + "' in the elements of '" +
                       A.Name + "'"),
        Layout.Fields.empty() ? "dist(" + A.Name + " = ...)"
                              : "one of " + llvm::join(Names, ", "));
  }
  auto Dist = distribution(D, Envs);
  if (!Dist)
    return Dist.takeError();
  for (const LaneField *F : Selected) {
    if (Error Err = checkEach(*Dist, F->Type, A.Name + "." + F->Name, D.Pos))
      return Err;
    A.FieldDists.emplace_back(F->Name, Dist->front());
  }
  return Error::success();
}

/// The distribution of each instance (the default one first), each to be
/// checked against the element's type. The first keeps the expressions, so
/// that instantiating another instance evaluates them with its sizes:
/// `int(0, N - 1)` indexes within N in every instance.
Expected<std::vector<Distribution>> SpecBuilder::distribution(
    const DistributionDraft &D,
    const std::vector<std::map<std::string, int64_t>> &Envs) const {
  std::vector<Distribution> Out;
  for (const auto &Env : Envs) {
    std::vector<double> Values;
    for (const SpecExpr &Param : D.Params) {
      auto V = SpecExprEvaluator(Env).evaluate(Param);
      if (!V)
        return V.takeError();
      Values.push_back(V->toDouble());
    }
    Distribution &One = Out.emplace_back();
    One.Kind = D.Kind;
    One.A = Values.empty() ? 0 : Values[0];
    One.B = Values.size() > 1 ? Values[1] : 0;
    if (Values.size() > 2)
      One.Mod = Values[2];
  }
  Out.front().Params = D.Params;
  return Out;
}

/// checkDistribution() for every instance's values, an error saying which.
Error SpecBuilder::checkEach(const std::vector<Distribution> &Dists,
                             const ElementType &Type, StringRef Buffer,
                             const SourcePos &Pos) const {
  for (size_t I = 0; I < Dists.size(); ++I)
    if (Error Err = checkDistribution(Dists[I], Type, Buffer, Pos))
      return I == 0 ? std::move(Err)
                    : withContext(std::move(Err),
                                  " in instance '" +
                                      Spec.Instances[I - 1].Name + "'");
  return Error::success();
}

static bool isWhole(double V) { return std::isfinite(V) && V == std::trunc(V); }

Error SpecBuilder::checkDistribution(const Distribution &D,
                                     const ElementType &Type, StringRef Buffer,
                                     const SourcePos &Pos) {
  std::string Where = "for '" + Buffer.str() + "' (" + Type.Name + ")";
  std::string Call =
      D.Kind == "permutation"
          ? "permutation()"
          : D.Kind + "(" + numberText(D.A) +
                (D.Kind == "constant" ? "" : ", " + numberText(D.B)) +
                (D.Mod ? ", " + numberText(*D.Mod) : "") + ")";
  auto Bad = [&](const llvm::Twine &Why, const llvm::Twine &Expected) {
    return specError(Pos, "bad distribution " + Call + " " + Where + ": " + Why,
                     Expected);
  };
  bool Structure = D.Kind == "offsets" || D.Kind == "permutation";
  if (Structure && !Type.IsInteger)
    return Bad("it draws indices", "an integer buffer for " + D.Kind + "(...)");
  if (D.Kind == "offsets" &&
      (!isWhole(D.A) || !isWhole(D.B) || D.A < 0 || D.A > D.B))
    return Bad("the gaps are not integers with 0 <= lo <= hi",
               "offsets(gap_lo, gap_hi) with integers 0 <= gap_lo <= gap_hi");
  if (D.Kind == "sorted" && !(D.A <= D.B))
    return Bad("lo is above hi", "sorted(lo, hi) with lo <= hi");
  bool Fractional = D.Kind == "uniform" || D.Kind == "normal";
  if (Fractional && Type.IsInteger)
    return Bad("it draws fractional values",
               "int(lo, hi), index(...) or constant(...) for an integer "
               "buffer");
  if (D.Kind == "uniform" && !(D.A < D.B))
    return Bad("lo is not below hi", "uniform(lo, hi) with lo < hi");
  if (D.Kind == "normal" && !(D.B > 0))
    return Bad("the standard deviation is not positive",
               "normal(mean, stddev) with stddev > 0");
  if (D.Kind == "int" && (!isWhole(D.A) || !isWhole(D.B) || D.A > D.B))
    return Bad("the bounds are not integers in order",
               "int(lo, hi) with integers lo <= hi");
  if (D.Kind == "index" && D.Mod && (!isWhole(*D.Mod) || *D.Mod < 1))
    return Bad("mod is not a positive integer",
               "index(scale, offset, mod) with mod >= 1");
  if (D.Kind == "index" && Type.IsInteger && (!isWhole(D.A) || !isWhole(D.B)))
    return Bad("scale and offset are not integers",
               "integer scale and offset for an integer buffer");
  bool Bounded = D.Kind == "uniform" || D.Kind == "int" || D.Kind == "sorted";
  if ((Bounded && (!Type.holds(D.A) || !Type.holds(D.B))) ||
      (D.Kind == "constant" && !Type.holds(D.A)))
    return Bad("its values do not fit the element type",
               "values from " + numberText(Type.Min) + " to " +
                   numberText(Type.Max));
  return llvm::Error::success();
}
