//===- TransformChoice.cpp - which transforms a run may use --------------===//

#include "driver/Session/TransformChoice.h"
#include "optiml/Support/Error.h"
#include "optiml/Transform/TransformRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace optiml;

static llvm::Error checkNames(llvm::ArrayRef<std::string> Names,
                              llvm::StringRef Option,
                              const TransformRegistry &Registry) {
  for (const std::string &N : Names)
    if (!Registry.find(N))
      return makeError(
          ErrorKind::BadInput,
          Option + ": unknown transform '" + N +
              "' (transforms: " + llvm::join(Registry.names(), ", ") + ")");
  return llvm::Error::success();
}

llvm::Error TransformChoice::check(const TransformRegistry &Registry) const {
  if (llvm::Error E = checkNames(Only, "--transforms", Registry))
    return E;
  if (llvm::Error E = checkNames(Exclude, "--exclude", Registry))
    return E;
  for (const std::string &N : Exclude)
    if (named(N))
      return makeError(ErrorKind::BadInput,
                       "'" + N +
                           "' is in both --transforms and --exclude: choose "
                           "one");
  return llvm::Error::success();
}

bool TransformChoice::named(llvm::StringRef Name) const {
  return llvm::is_contained(Only, Name);
}

bool TransformChoice::admits(llvm::StringRef Name) const {
  return (Only.empty() || named(Name)) && !llvm::is_contained(Exclude, Name);
}

/// "1e-06", the way a spec writes it.
static std::string number(double X) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("%g", X);
  return S;
}

llvm::Expected<TransformSelection>
TransformChoice::select(const TransformRegistry &Registry, double RTol,
                        bool IntegerOnly) const {
  TransformSelection S;
  for (const Transform *T : Registry.all()) {
    if (!admits(T->name()))
      continue;
    if (T->changesNumerics() && !named(T->name()) && !IntegerOnly &&
        RTol < NumericsRTolFloor) {
      S.Notes.push_back(
          T->name().str() + " changes numerics and the spec's rtol " +
          number(RTol) + " is below " + number(NumericsRTolFloor) +
          ": not searched (name it in --transforms to search "
          "it)");
      continue;
    }
    S.Names.push_back(T->name().str());
  }
  if (S.Names.empty())
    return makeError(
        ErrorKind::BadInput,
        "--transforms and --exclude leave no transform to "
        "search" +
            (S.Notes.empty() ? std::string() : " (" + S.Notes.front() + ")"));
  return S;
}
