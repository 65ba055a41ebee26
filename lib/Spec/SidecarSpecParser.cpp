//===- SidecarSpecParser.cpp - kernel specs from a JSON file -------------===//
//
// nlohmann::json may throw; every call that can is in this file and guarded
// here, so no exception leaves the Spec layer.
//
//===----------------------------------------------------------------------===//

#include "optiml/Spec/SidecarSpecParser.h"
#include "optiml/Spec/JsonLocator.h"
#include "optiml/Spec/PragmaSpecParser.h"
#include "optiml/Spec/SpecDiagnostic.h"
#include "optiml/Support/Error.h"

#include "clang/Basic/CharInfo.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <nlohmann/json.hpp>

using namespace optiml;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using Json = nlohmann::ordered_json;
using Path = std::vector<std::string>;

static Path operator/(Path P, StringRef Step) {
  P.push_back(Step.str());
  return P;
}

/// "an array", "a string", ...: for messages.
static std::string typeWord(const Json &J) {
  StringRef Name = J.type_name();
  if (Name == "null")
    return "null";
  return (StringRef("aeiou").contains(Name[0]) ? "an " : "a ") + Name.str();
}

namespace {

/// Reads one kernel's entry; every error points at the value (or key) that
/// is wrong.
class SidecarReader {
public:
  SidecarReader(StringRef Text, StringRef File) : Loc(Text, File) {}

  Expected<SpecDraft> kernel(const Json &K, const Path &At);

  Error error(const Path &At, const llvm::Twine &What,
              const llvm::Twine &Expected) const {
    return specError(Loc.valueAt(At), What, Expected);
  }
  Error checkKeys(const Json &Obj, const Path &At,
                  llvm::ArrayRef<StringRef> Allowed) const;
  Error checkObject(const Json &J, const Path &At,
                    const llvm::Twine &Expected) const;

private:
  Expected<SpecExpr> expr(const Json &J, const Path &At) const;
  Error field(StringRef Key, const Json &V, const Path &At);
  Error templateArgs(const Json &J, const Path &At);
  Error sizes(const Json &J, const Path &At);
  Error args(const Json &J, const Path &At);
  Expected<ArgDraft> arg(const Json &J, const Path &At, StringRef Name) const;
  Expected<DistributionDraft> dist(const Json &J, const Path &At) const;
  Expected<DimsDraft> dims(const Json &J, const Path &At, size_t Max) const;
  Error tolerance(const Json &J, const Path &At);
  Error instances(const Json &J, const Path &At);
  Error checkName(StringRef Name, const Path &At, StringRef What) const;

  JsonLocator Loc;
  SpecDraft Draft;
};

} // namespace

Error SidecarReader::checkObject(const Json &J, const Path &At,
                                 const llvm::Twine &Expected) const {
  if (J.is_object())
    return Error::success();
  return error(At, "\"" + At.back() + "\" is " + typeWord(J), Expected);
}

/// Unknown keys are errors (a misspelled "tolerence" must not be ignored);
/// "comment" is allowed everywhere since JSON has no comments.
Error SidecarReader::checkKeys(const Json &Obj, const Path &At,
                               llvm::ArrayRef<StringRef> Allowed) const {
  for (const auto &Item : Obj.items()) {
    StringRef Key = Item.key();
    if (Key == "comment" || llvm::is_contained(Allowed, Key))
      continue;
    return specError(Loc.keyAt(At / Key), "unknown key \"" + Key + "\"",
                     "one of " + llvm::join(Allowed, ", "));
  }
  return Error::success();
}

Error SidecarReader::checkName(StringRef Name, const Path &At,
                               StringRef What) const {
  if (clang::isValidAsciiIdentifier(Name))
    return Error::success();
  return specError(Loc.keyAt(At),
                   "'" + Name + "' is not a valid " + What + " name",
                   "an identifier");
}

Expected<SpecExpr> SidecarReader::expr(const Json &J, const Path &At) const {
  if (J.is_string())
    return SpecExpr{J.get<std::string>(), shifted(Loc.valueAt(At), 1)};
  if (J.is_number())
    return SpecExpr{J.dump(), Loc.valueAt(At)};
  return error(At, "\"" + At.back() + "\" is " + typeWord(J),
               "a number or an expression string such as \"N * 4\"");
}

Expected<SpecDraft> SidecarReader::kernel(const Json &K, const Path &At) {
  Draft.From = SpecDraft::Origin::Sidecar;
  Draft.Pos = Loc.keyAt(At);
  if (Error Err = checkObject(K, At, "an object with the kernel's spec"))
    return Err;
  if (Error Err = checkKeys(K, At,
                            {"sizes", "args", "grid", "block", "shmem",
                             "tolerance", "seeds", "instances", "template"}))
    return Err;
  for (const auto &Item : K.items())
    if (Error Err = field(Item.key(), Item.value(), At / Item.key()))
      return Err;
  return std::move(Draft);
}

Error SidecarReader::field(StringRef Key, const Json &V, const Path &At) {
  if (Key == "sizes")
    return sizes(V, At);
  if (Key == "template")
    return templateArgs(V, At);
  if (Key == "args")
    return args(V, At);
  if (Key == "tolerance")
    return tolerance(V, At);
  if (Key == "instances")
    return instances(V, At);
  if (Key == "comment")
    return Error::success();
  if (Key == "shmem") {
    auto E = expr(V, At);
    if (!E)
      return E.takeError();
    Draft.SharedMemory = *E;
    return Error::success();
  }
  auto D = dims(V, At, Key == "seeds" ? SIZE_MAX : 3);
  if (!D)
    return D.takeError();
  (Key == "grid"    ? Draft.Grid
   : Key == "block" ? Draft.Block
                    : Draft.Seeds) = *D;
  return Error::success();
}

Error SidecarReader::sizes(const Json &J, const Path &At) {
  if (Error Err = checkObject(J, At, "an object such as {\"N\": \"1 << 20\"}"))
    return Err;
  for (const auto &Item : J.items()) {
    StringRef Name = Item.key();
    if (Error Err = checkName(Name, At / Name, "size"))
      return Err;
    if (Name == "ceil_div" || Name == "min" || Name == "max")
      return specError(Loc.keyAt(At / Name),
                       "'" + Name + "' is a function name",
                       "a size name other than ceil_div, min and max");
    auto E = expr(Item.value(), At / Name);
    if (!E)
      return E.takeError();
    Draft.Sizes.push_back({Name.str(), *E});
  }
  return Error::success();
}

Error SidecarReader::templateArgs(const Json &J, const Path &At) {
  if (Error Err = checkObject(
          J, At, "an object such as {\"T\": \"float\", \"BS\": 256}"))
    return Err;
  for (const auto &Item : J.items()) {
    auto E = expr(Item.value(), At / Item.key());
    if (!E)
      return E.takeError();
    Draft.TemplateArgs.push_back({Item.key(), *E});
  }
  return Error::success();
}

Error SidecarReader::args(const Json &J, const Path &At) {
  if (Error Err = checkObject(J, At,
                              "an object from parameter names to "
                              "{\"role\": ..., \"length\" or \"value\": ...}"))
    return Err;
  for (const auto &Item : J.items()) {
    auto A = arg(Item.value(), At / Item.key(), Item.key());
    if (!A)
      return A.takeError();
    Draft.Args.push_back(std::move(*A));
  }
  return Error::success();
}

Expected<ArgDraft> SidecarReader::arg(const Json &J, const Path &At,
                                      StringRef Name) const {
  ArgDraft A;
  A.Name = Name.str();
  A.Pos = Loc.keyAt(At);
  if (Error Err = checkObject(J, At, "{\"role\": ..., \"length\": ...}"))
    return Err;
  if (Error Err =
          checkKeys(J, At, {"role", "length", "value", "dist", "field_dists"}))
    return Err;
  if (J.contains("role")) {
    const Json &R = J["role"];
    if (R == "alias")
      return error(At / "role", "\"alias\" for '" + Name + "' in a sidecar",
                   "alias(" + Name +
                       " = BUFFER) in the kernel's mark, where "
                       "the transforms' legality reads it");
    A.Null = R == "null";
    A.Symbol = R == "symbol";
    A.Role = A.Null          ? std::optional(ArgRole::Scalar)
             : A.Symbol      ? std::optional(ArgRole::In)
             : R.is_string() ? protocol::parseRole(R.get<std::string>())
                             : std::nullopt;
    if (!A.Role)
      return error(At / "role", "bad role " + R.dump(),
                   "\"in\", \"out\", \"inout\", \"scalar\", \"null\" or "
                   "\"symbol\"");
    A.Pos = Loc.valueAt(At / "role");
    if (A.Null)
      A.Value = SpecExpr{"0", A.Pos};
  }
  bool Scalar = A.Role == ArgRole::Scalar, Buffer = A.Role && !Scalar;
  for (StringRef Key : {"length", "value"}) {
    if (!J.contains(Key))
      continue;
    if ((Key == "length" && Scalar) || (Key == "value" && Buffer))
      return specError(Loc.keyAt(At / Key),
                       "\"" + Key + "\" for " + (Scalar ? "scalar" : "buffer") +
                           " '" + Name + "'",
                       Scalar ? "\"value\"" : "\"length\"");
    auto E = expr(J[std::string(Key)], At / Key);
    if (!E)
      return E.takeError();
    (Key == "length" ? A.Length : A.Value) = *E;
  }
  if (J.contains("dist")) {
    auto D = dist(J["dist"], At / "dist");
    if (!D)
      return D.takeError();
    A.Dist = std::move(*D);
  }
  if (J.contains("field_dists")) {
    // {"x": "uniform(5, 30)", "y": {"kind": "int", ...}}: a distribution
    // per field of the elements.
    const Json &F = J["field_dists"];
    Path FAt = At / "field_dists";
    if (Error Err = checkObject(F, FAt, "{\"x\": \"uniform(0, 1)\", ...}"))
      return Err;
    for (const auto &[Field, Value] : F.items()) {
      auto D = dist(Value, FAt / Field);
      if (!D)
        return D.takeError();
      A.FieldDists.emplace_back(Field, std::move(*D));
    }
  }
  return A;
}

namespace {
struct DistForm {
  StringRef Kind;
  std::vector<StringRef> Params; ///< The last of index's is optional.
};
} // namespace

static const DistForm DistForms[] = {
    {"uniform", {"lo", "hi"}}, {"normal", {"mean", "stddev"}},
    {"int", {"lo", "hi"}},     {"index", {"scale", "offset", "mod"}},
    {"constant", {"value"}},   {"offsets", {"lo", "hi"}},
    {"permutation", {}},       {"sorted", {"lo", "hi"}},
};

Expected<DistributionDraft> SidecarReader::dist(const Json &J,
                                                const Path &At) const {
  if (J.is_string()) {
    SourcePos Start = shifted(Loc.valueAt(At), 1);
    return PragmaSpecParser::parseDistribution(
        J.get<std::string>(),
        [Start](size_t Offset) { return shifted(Start, Offset); });
  }
  const char *Form = "{\"kind\": \"uniform\", \"lo\": -1, \"hi\": 1} or "
                     "\"uniform(-1, 1)\"";
  if (Error Err = checkObject(J, At, Form))
    return Err;
  std::string Kind = J.contains("kind") && J["kind"].is_string()
                         ? J["kind"].get<std::string>()
                         : "";
  const DistForm *F = llvm::find_if(
      DistForms, [&](const DistForm &D) { return D.Kind == Kind; });
  if (F == std::end(DistForms))
    return error(J.contains("kind") ? At / "kind" : At, "bad distribution kind",
                 Form);
  std::vector<StringRef> Allowed = F->Params;
  Allowed.push_back("kind");
  if (Error Err = checkKeys(J, At, Allowed))
    return Err;
  DistributionDraft D{Kind, {}, Loc.valueAt(At)};
  for (StringRef Param : F->Params) {
    if (!J.contains(Param)) {
      if (Param == "mod")
        break;
      return error(At, "distribution '" + Kind + "' has no \"" + Param + "\"",
                   "\"" + llvm::join(F->Params, "\", \"") + "\"");
    }
    auto E = expr(J[std::string(Param)], At / Param);
    if (!E)
      return E.takeError();
    D.Params.push_back(*E);
  }
  return D;
}

Expected<DimsDraft> SidecarReader::dims(const Json &J, const Path &At,
                                        size_t Max) const {
  DimsDraft D{{}, Loc.valueAt(At)};
  if (!J.is_array()) {
    auto E = expr(J, At);
    if (!E)
      return E.takeError();
    D.Dims.push_back(*E);
    return D;
  }
  if (J.empty() || J.size() > Max)
    return error(
        At, "\"" + At.back() + "\" has " + llvm::Twine(J.size()) + " elements",
        Max == 3 ? "1 to 3 expressions" : "a list of seeds");
  for (size_t I = 0; I < J.size(); ++I) {
    auto E = expr(J[I], At / std::to_string(I));
    if (!E)
      return E.takeError();
    D.Dims.push_back(*E);
  }
  return D;
}

Error SidecarReader::tolerance(const Json &J, const Path &At) {
  if (Error Err = checkObject(J, At, "{\"rtol\": R, \"atol\": A, \"norm\": N}"))
    return Err;
  if (Error Err = checkKeys(J, At, {"rtol", "atol", "norm"}))
    return Err;
  for (const auto &Item : J.items()) {
    StringRef Key = Item.key();
    if (Key == "comment")
      continue;
    auto E = expr(Item.value(), At / Key);
    if (!E)
      return E.takeError();
    (Key == "rtol"   ? Draft.RTol
     : Key == "atol" ? Draft.ATol
                     : Draft.NormTol) = *E;
  }
  return Error::success();
}

Error SidecarReader::instances(const Json &J, const Path &At) {
  if (Error Err = checkObject(J, At, "{\"NAME\": {\"SIZE\": VALUE, ...}}"))
    return Err;
  for (const auto &Item : J.items()) {
    StringRef Name = Item.key();
    Path Sub = At / Name;
    if (Error Err = checkName(Name, Sub, "instance"))
      return Err;
    if (Name == "default")
      return specError(Loc.keyAt(Sub), "instance name 'default' is taken",
                       "a name other than 'default'");
    if (Error Err = checkObject(Item.value(), Sub, "{\"SIZE\": VALUE, ...}"))
      return Err;
    InstanceSpec I{Name.str(), {}, Loc.keyAt(Sub)};
    for (const auto &Size : Item.value().items()) {
      auto E = expr(Size.value(), Sub / Size.key());
      if (!E)
        return E.takeError();
      I.Sizes.push_back({Size.key(), *E});
    }
    Draft.Instances.push_back(std::move(I));
  }
  return Error::success();
}

/// nlohmann's message ("[json.exception.parse_error.101] parse error at line
/// 3, column 5: syntax error while parsing object - unexpected '}'; expected
/// string literal") split into what and expected, without its own position.
static Error malformed(const Json::parse_error &E, StringRef Text,
                       StringRef File) {
  StringRef Message = E.what();
  size_t Colon = Message.find(": ");
  if (Colon != StringRef::npos)
    Message = Message.substr(Colon + 2);
  auto [What, Expected] = Message.split("; expected ");
  size_t Offset = E.byte > 0 ? E.byte - 1 : 0;
  return specError(positionOf(Text, Offset, File), "malformed JSON: " + What,
                   Expected.empty() ? StringRef("a valid JSON document")
                                    : Expected);
}

Expected<std::optional<SpecDraft>>
SidecarSpecParser::parse(StringRef Text, StringRef File,
                         const KernelInfo &Kernel) {
  try {
    Json Root = Json::parse(Text.begin(), Text.end());
    SidecarReader Reader(Text, File);
    const char *Form = "{\"kernels\": {\"KERNEL\": {...}}}";
    if (!Root.is_object())
      return Reader.error({}, "the sidecar is " + typeWord(Root), Form);
    if (Error Err = Reader.checkKeys(Root, {}, {"kernels"}))
      return Err;
    if (!Root.contains("kernels"))
      return Reader.error({}, "the sidecar has no \"kernels\"", Form);
    const Json &Kernels = Root["kernels"];
    if (Error Err = Reader.checkObject(Kernels, {"kernels"}, Form))
      return Err;
    for (const std::string &Name : {Kernel.QualifiedName, Kernel.Name}) {
      if (Name.empty() || !Kernels.contains(Name))
        continue;
      auto Draft = Reader.kernel(Kernels[Name], {"kernels", Name});
      if (!Draft)
        return Draft.takeError();
      return std::optional<SpecDraft>(std::move(*Draft));
    }
    return std::nullopt;
  } catch (const Json::parse_error &E) {
    return malformed(E, Text, File);
  } catch (const Json::exception &E) {
    return makeError(ErrorKind::BadInput,
                     File + ":1:1: error: unreadable sidecar: " + E.what() +
                         "; expected the format of docs/Spec.md");
  }
}

Expected<std::optional<SpecDraft>>
SidecarSpecParser::load(StringRef Path, const KernelInfo &Kernel) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return makeError(ErrorKind::BadInput,
                     "cannot read spec file '" + Path +
                         "': " + Buffer.getError().message());
  return parse((*Buffer)->getBuffer(), Path, Kernel);
}
