//===- FunctionTransform.cpp - a transform made of its functions ----------===//

#include "optiml/Transform/FunctionTransform.h"

using namespace optiml;

ParamValues FunctionTransform::defaults(const Site &S,
                                        clang::ASTContext &Ctx) const {
  ParamValues Declared = Transform::defaults(S, Ctx);
  return Defaults ? Defaults(descriptor(), std::move(Declared), S, Ctx)
                  : Declared;
}

ParamValues FunctionTransform::suggested(const Site &S,
                                         clang::ASTContext &Ctx) const {
  ParamValues Defaulted = defaults(S, Ctx);
  return Suggest ? Suggest(descriptor(), std::move(Defaulted), S, Ctx)
                 : Defaulted;
}
