//===- Trace.cpp - a search state as the steps that produce it ------------===//

#include "optiml/Search/Trace.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/SmallVector.h"

using namespace optiml;

std::string optiml::toString(const Trace &T) {
  std::string S;
  for (const Step &Each : T)
    S += (S.empty() ? "" : "; ") + Each.str();
  return S;
}

static llvm::Error bad(llvm::StringRef Text, const llvm::Twine &Why) {
  return makeError(ErrorKind::BadInput, "in step '" + Text + "': " + Why);
}

llvm::Expected<Step> optiml::parseStepSpelling(llvm::StringRef Text) {
  llvm::StringRef T = Text.trim();
  size_t Open = T.find('(');
  if (Open == llvm::StringRef::npos || Open == 0 || !T.ends_with(")"))
    return bad(Text, "expected 'transform(site=...,param=value)'");
  Step S;
  S.Transform = T.take_front(Open).trim().str();
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  T.drop_front(Open + 1).drop_back().split(Parts, ',', -1, false);
  for (llvm::StringRef Part : Parts) {
    auto [Key, Value] = Part.split('=');
    Key = Key.trim(), Value = Value.trim();
    if (Key.empty() || Value.empty())
      return bad(Text, "expected 'name=value', got '" + Part.trim() + "'");
    if (Key == "site")
      S.Site = Value.str();
    else
      S.Params.set(Key, Value);
  }
  if (S.Site.empty())
    return bad(Text, "no site given");
  return S;
}

llvm::Expected<Trace> optiml::parseTrace(llvm::StringRef Text) {
  Trace T;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ';', -1, false);
  for (llvm::StringRef Part : Parts) {
    if (Part.trim().empty())
      continue;
    auto S = parseStepSpelling(Part);
    if (!S)
      return S.takeError();
    T.push_back(std::move(*S));
  }
  return T;
}
