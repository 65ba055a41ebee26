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

llvm::Error Transform::check(const Site &S, const ParamValues &Params,
                             clang::ASTContext &Ctx) const {
  auto R = plan(S, Params, Ctx);
  return R ? llvm::Error::success() : R.takeError();
}

const ParamSpec *Transform::param(llvm::StringRef Name) const {
  for (const ParamSpec &P : params())
    if (P.Name == Name)
      return &P;
  return nullptr;
}
