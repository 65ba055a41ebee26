//===- Step.cpp - one transform applied at one site ----------------------===//

#include "optiml/Transform/Step.h"
#include "optiml/Support/Error.h"
#include "optiml/Transform/TransformRegistry.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;

std::string Step::str() const {
  std::string S = Transform + "(site=" + Site;
  for (const auto &[Name, Value] : Params.items())
    S += "," + Name + "=" + Value;
  return S + ")";
}

static llvm::Error bad(llvm::StringRef Text, const llvm::Twine &Why) {
  return makeError(ErrorKind::BadInput, "in step '" + Text + "': " + Why);
}

/// Splits `key=value,key=value` (already without parentheses) into \p S.
static llvm::Error parseArguments(llvm::StringRef Text, llvm::StringRef Args,
                                  const Transform &T, Step &S) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Args.split(Parts, ',');
  for (llvm::StringRef Part : Parts) {
    auto [Key, Value] = Part.split('=');
    Key = Key.trim(), Value = Value.trim();
    if (Key.empty() || !Part.contains('=') || Value.empty())
      return bad(Text, "expected 'name=value', got '" + Part.trim() + "'");
    if (Key == "site") {
      if (!S.Site.empty())
        return bad(Text, "site is given twice");
      S.Site = Value.str();
      continue;
    }
    const ParamSpec *P = T.param(Key);
    if (!P) {
      std::vector<std::string> Names = {"site"};
      for (const ParamSpec &Declared : T.params())
        Names.push_back(Declared.Name);
      return bad(Text, T.name() + " has no parameter '" + Key +
                           "' (parameters: " + llvm::join(Names, ", ") + ")");
    }
    if (S.Params.has(Key))
      return bad(Text, "parameter '" + Key + "' is given twice");
    if (!P->admits(Value))
      return bad(Text, Key + "=" + Value + " is outside its domain " +
                           P->domainText());
    S.Params.set(Key, Value);
  }
  return llvm::Error::success();
}

llvm::Expected<Step> Step::parse(llvm::StringRef Text,
                                 const TransformRegistry &Registry) {
  llvm::StringRef Trimmed = Text.trim();
  size_t Open = Trimmed.find('(');
  llvm::StringRef Name = Trimmed.take_front(Open).trim();
  if (Name.empty())
    return bad(Text, "expected 'transform(site=...,param=value)'");
  const optiml::Transform *T = Registry.find(Name);
  if (!T)
    return bad(Text, "unknown transform '" + Name + "' (transforms: " +
                         llvm::join(Registry.names(), ", ") + ")");
  if (Open == llvm::StringRef::npos || !Trimmed.ends_with(")"))
    return bad(Text, "expected '" + Name + "(site=...)'");
  Step S;
  S.Transform = Name.str();
  llvm::StringRef Args = Trimmed.drop_front(Open + 1).drop_back().trim();
  if (!Args.empty())
    if (llvm::Error E = parseArguments(Text, Args, *T, S))
      return E;
  if (S.Site.empty())
    return bad(Text, "no site given (add site=...; --list-sites shows them)");
  return S;
}
