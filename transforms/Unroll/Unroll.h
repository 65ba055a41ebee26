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

#include "optiml/Transform/Transform.h"

namespace optiml {

class Unroll : public Transform {
public:
  Unroll();

  llvm::StringRef name() const override { return "unroll"; }
  llvm::StringRef summary() const override {
    return "put '#pragma unroll F' before a for-loop, or with mode=explicit "
           "write F copies of its body and a remainder loop";
  }
  SiteKind siteKind() const override { return SiteKind::Loop; }
  llvm::ArrayRef<ParamSpec> params() const override { return Params; }

  /// The factor only: `mode` is spelled in a step only when given, so
  /// default steps read as they did before the parameter existed.
  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;

  llvm::Error check(const Site &S, const ParamValues &P,
                    clang::ASTContext &Ctx) const override;
  llvm::Expected<EditSet> apply(const Site &S, const ParamValues &P,
                                clang::ASTContext &Ctx) const override;

private:
  llvm::Expected<EditSet> applyExplicit(const Site &S, const ParamValues &P,
                                        clang::ASTContext &Ctx) const;

  std::vector<ParamSpec> Params;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_UNROLL_UNROLL_H
