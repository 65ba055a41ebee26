//===- Unroll.h - `#pragma unroll F` before a for-loop --------*- C++ -*-===//
//
// Asks the compiler to unroll a loop F times. The pragma cannot change what
// the loop computes (the compiler handles the remainder), so legality is
// only about where it can be written (UnrollLegality).
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
    return "put '#pragma unroll F' before a for-loop";
  }
  SiteKind siteKind() const override { return SiteKind::Loop; }
  llvm::ArrayRef<ParamSpec> params() const override { return Params; }

  llvm::Error check(const Site &S, const ParamValues &P,
                    clang::ASTContext &Ctx) const override;
  llvm::Expected<EditSet> apply(const Site &S, const ParamValues &P,
                                clang::ASTContext &Ctx) const override;

private:
  std::vector<ParamSpec> Params;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_UNROLL_UNROLL_H
