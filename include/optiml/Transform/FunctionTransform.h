//===- FunctionTransform.h - a transform made of its functions -*- C++ -*-===//
//
// What a folder of the library is: its descriptor, the function that plans
// the rewrite at a site, and, for the few whose suggested parameters depend
// on the site, the function that adjusts the declared defaults. A folder
// writes these as file-local functions and needs no class of its own.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_FUNCTIONTRANSFORM_H
#define OPTIML_TRANSFORM_FUNCTIONTRANSFORM_H

#include "optiml/Transform/Transform.h"

namespace optiml {

class FunctionTransform final : public Transform {
public:
  /// Transform::plan's contract.
  using PlanFn = llvm::Expected<Rewrite> (*)(const Site &, const ParamValues &,
                                             clang::ASTContext &);
  /// Given the descriptor and its declared defaults, the ones to suggest
  /// at the site.
  using DefaultsFn = ParamValues (*)(const TransformDescriptor &,
                                     ParamValues Declared, const Site &,
                                     clang::ASTContext &);

  FunctionTransform(TransformDescriptor D, PlanFn Plan,
                    DefaultsFn Defaults = nullptr, DefaultsFn Suggest = nullptr)
      : Transform(std::move(D)), Plan(Plan), Defaults(Defaults),
        Suggest(Suggest) {}

  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;
  /// \p Suggest applied to defaults(), when given.
  ParamValues suggested(const Site &S, clang::ASTContext &Ctx) const override;
  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override {
    return Plan(S, P, Ctx);
  }

private:
  PlanFn Plan;
  DefaultsFn Defaults;
  DefaultsFn Suggest;
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_FUNCTIONTRANSFORM_H
