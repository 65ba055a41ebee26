//===- Transform.cpp - one structured, checked source rewrite ------------===//

#include "optiml/Transform/Transform.h"

using namespace optiml;

Transform::~Transform() = default;

ParamValues Transform::defaults(const Site &, clang::ASTContext &) const {
  ParamValues Values;
  for (const ParamSpec &P : params())
    Values.set(P.Name, P.Default);
  return Values;
}

const ParamSpec *Transform::param(llvm::StringRef Name) const {
  for (const ParamSpec &P : params())
    if (P.Name == Name)
      return &P;
  return nullptr;
}
