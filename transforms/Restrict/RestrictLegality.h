//===- RestrictLegality.h - may buffers be __restrict__? --------*- C++ -*-===//
//
// `__restrict__` promises the compiler that the buffers behind the kernel's
// pointer parameters do not overlap. The rule, checked here, is:
//   * every launch of the kernel in this file passes a distinct variable
//     (or null) for each pointer parameter; with no launch in the file the
//     promise rests on the kernel spec, whose buffers are distinct;
//   * the kernel's address is not taken (other launches are out of reach);
//   * inside the kernel no pointer parameter is assigned from another.
// Distinct variables may still hold the same address; that is the rule's
// documented limit (docs/transforms/restrict.md).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_RESTRICT_RESTRICTLEGALITY_H
#define OPTIML_TRANSFORMS_RESTRICT_RESTRICTLEGALITY_H

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

namespace optiml {

class RestrictLegality {
public:
  /// Success, or Illegal (aliasing possible) / NotApplicable (nothing left
  /// to qualify) with the reason.
  static llvm::Error check(const clang::FunctionDecl &Kernel,
                           clang::ASTContext &Ctx);

private:
  static llvm::Error checkLaunch(const clang::FunctionDecl &Kernel,
                                 const clang::CallExpr &Call,
                                 clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_RESTRICT_RESTRICTLEGALITY_H
