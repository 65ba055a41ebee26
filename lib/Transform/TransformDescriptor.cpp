//===- TransformDescriptor.cpp - a transform's descriptor as JSON --------===//

#include "optiml/Transform/TransformDescriptor.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <nlohmann/json.hpp>

using namespace optiml;
using nlohmann::json;

json optiml::paramValueJSON(llvm::StringRef V) {
  int64_t N;
  if (!V.getAsInteger(10, N))
    return N;
  return V.str();
}

json optiml::toJSON(const TransformDescriptor &D) {
  json Params = json::array();
  for (const ParamSpec &P : D.Params) {
    json Domain = json::array();
    for (const std::string &V : P.Domain)
      Domain.push_back(paramValueJSON(V));
    Params.push_back({{"name", P.Name},
                      {"domain", Domain},
                      {"default", paramValueJSON(P.Default)},
                      {"help", P.Help}});
  }
  return {{"name", D.Name},          {"site", siteKindName(D.Kind).str()},
          {"summary", D.Summary},    {"changes_numerics", D.ChangesNumerics},
          {"recipe", D.Recipe},      {"params", Params},
          {"addresses", D.Addresses}};
}

namespace {

/// Reads the fields of one JSON object, keeping the first problem, phrased
/// with where it is (`params[1].default`).
class FieldReader {
public:
  FieldReader(const json &Object, std::string Where)
      : Object(Object), Where(std::move(Where)) {}

  /// Whether \p Object is an object with no field outside \p Known.
  bool onlyFields(std::initializer_list<llvm::StringRef> Known) {
    if (!Object.is_object())
      return fail("is not an object");
    for (const auto &Item : Object.items())
      if (!llvm::is_contained(Known, Item.key()))
        return fail("has an unknown field '" + Item.key() + "'");
    return true;
  }

  bool string(const char *Key, std::string &Out) {
    const json *V = field(Key);
    if (!V || !V->is_string() || V->get<std::string>().empty())
      return fail(std::string(Key) + " must be a non-empty string");
    Out = V->get<std::string>();
    return true;
  }

  /// A string or an integer, as text (domain values and defaults).
  bool value(const json &V, const std::string &What, std::string &Out) {
    if (V.is_number_integer())
      Out = std::to_string(V.get<int64_t>());
    else if (V.is_string() && !V.get<std::string>().empty())
      Out = V.get<std::string>();
    else
      return fail(What + " must be a non-empty string or an integer");
    return true;
  }

  bool strings(const char *Key, std::vector<std::string> &Out) {
    const json *V = field(Key);
    if (!V || !V->is_array())
      return fail(std::string(Key) + " must be an array of strings");
    for (const json &E : *V) {
      if (!E.is_string())
        return fail(std::string(Key) + " must be an array of strings");
      Out.push_back(E.get<std::string>());
    }
    return true;
  }

  /// The field \p Key, or null (and a problem) when it is missing.
  const json *field(const char *Key) {
    auto It = Object.find(Key);
    if (It != Object.end())
      return &*It;
    fail("has no field '" + std::string(Key) + "'");
    return nullptr;
  }

  bool has(const char *Key) const { return Object.contains(Key); }

  bool fail(const std::string &Why) {
    if (Problem.empty())
      Problem = (Where.empty() ? "the descriptor" : Where) + " " + Why;
    return false;
  }

  /// Takes on the problem of a reader of one of this object's fields.
  bool failAs(const FieldReader &Inner) {
    if (Problem.empty())
      Problem = Inner.Problem;
    return false;
  }

  const std::string &problem() const { return Problem; }

private:
  const json &Object;
  std::string Where;
  std::string Problem;
};

} // namespace

static bool readParam(const json &J, const std::string &Where, ParamSpec &P,
                      FieldReader &Outer) {
  FieldReader R(J, Where);
  bool OK = R.onlyFields({"name", "domain", "default", "help"}) &&
            R.string("name", P.Name) && R.string("help", P.Help);
  const json *Domain = OK ? R.field("domain") : nullptr;
  if (OK && (!Domain || !Domain->is_array() || Domain->empty()))
    OK = R.fail("domain must be a non-empty array");
  for (size_t I = 0; OK && I < Domain->size(); ++I) {
    P.Domain.emplace_back();
    OK = R.value((*Domain)[I], "domain[" + std::to_string(I) + "]",
                 P.Domain.back());
  }
  const json *Default = OK ? R.field("default") : nullptr;
  OK = OK && Default && R.value(*Default, "default", P.Default);
  if (OK && !P.admits(P.Default))
    OK = R.fail("default '" + P.Default + "' is outside its domain " +
                P.domainText());
  if (OK && P.Name == "site")
    OK = R.fail("name 'site' is reserved for the step's site");
  return OK || Outer.failAs(R);
}

static bool readParams(FieldReader &R, std::vector<ParamSpec> &Params) {
  const json *List = R.field("params");
  if (!List || !List->is_array())
    return R.fail("params must be an array");
  llvm::StringSet<> Names;
  for (size_t I = 0; I < List->size(); ++I) {
    ParamSpec P;
    if (!readParam((*List)[I], "params[" + std::to_string(I) + "]", P, R))
      return false;
    if (!Names.insert(P.Name).second)
      return R.fail("names parameter '" + P.Name + "' twice");
    Params.push_back(std::move(P));
  }
  return true;
}

static bool readSiteKind(FieldReader &R, SiteKind &Kind) {
  std::string Name;
  if (!R.string("site", Name))
    return false;
  for (SiteKind K : {SiteKind::Kernel, SiteKind::Loop, SiteKind::Buffer})
    if (siteKindName(K) == Name) {
      Kind = K;
      return true;
    }
  return R.fail("site must be kernel, loop or buffer, not '" + Name + "'");
}

llvm::Expected<TransformDescriptor>
optiml::descriptorFromJSON(llvm::StringRef Text, llvm::StringRef Origin) {
  json J = json::parse(Text.begin(), Text.end(), nullptr,
                       /*allow_exceptions=*/false);
  if (J.is_discarded())
    return makeError(ErrorKind::Internal, Origin + ": not valid JSON");
  TransformDescriptor D;
  FieldReader R(J, "");
  bool OK = R.onlyFields({"name", "summary", "site", "params",
                          "changes_numerics", "recipe", "addresses"}) &&
            R.string("name", D.Name) && R.string("summary", D.Summary) &&
            readSiteKind(R, D.Kind) && readParams(R, D.Params) &&
            R.strings("addresses", D.Addresses);
  // The optional flags: absent is false.
  for (auto [Key, Out] : {std::pair{"changes_numerics", &D.ChangesNumerics},
                          std::pair{"recipe", &D.Recipe}}) {
    if (!OK || !R.has(Key))
      continue;
    const json &C = J[Key];
    if (C.is_boolean())
      *Out = C.get<bool>();
    else
      OK = R.fail(std::string(Key) + " must be true or false");
  }
  if (!OK)
    return makeError(ErrorKind::Internal, Origin + ": " + R.problem());
  return D;
}
