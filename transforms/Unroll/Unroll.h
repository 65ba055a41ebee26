//===- Unroll.h - unroll a for-loop, by pragma or by hand -----*- C++ -*-===//
//
// mode=pragma asks the compiler to unroll a loop F times. The pragma cannot
// change what the loop computes (the compiler handles the remainder), so
// legality is only about where it can be written (UnrollLegality).
//
// mode=explicit writes the F copies of the body into the source, with a
// remainder loop, for loops the compiler would not unroll as asked; the
// copies must do what the iterations did (ExplicitUnrollLegality), and
// ExplicitUnrollPrinter writes them.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_UNROLL_UNROLL_H
#define OPTIML_TRANSFORMS_UNROLL_UNROLL_H

#include "transforms/Unroll/ExplicitUnrollLegality.h"
#include "optiml/Transform/Transform.h"

namespace optiml {

class Unroll : public Transform {
public:
  using Transform::Transform;

  /// The factor only: `mode` is spelled in a step only when given, so
  /// default steps read as they did before the parameter existed.
  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;

  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  static llvm::Expected<EditSet> emitPragma(const clang::Stmt &Loop,
                                            const std::string &Pragma,
                                            clang::ASTContext &Ctx);
  static llvm::Expected<EditSet>
  emitExplicit(const clang::FunctionDecl &K, const ExplicitUnrollPlan &Plan,
               clang::ASTContext &Ctx);

};

/// The factory Transforms.def registers; \p D is Unroll.json.
std::unique_ptr<Transform> createUnroll(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_UNROLL_UNROLL_H
