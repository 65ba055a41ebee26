//===- RestrictLegality.h - may buffers be __restrict__? --------*- C++ -*-===//
//
// `__restrict__` promises the compiler that the buffers behind the kernel's
// pointer parameters do not overlap: checkDistinctBuffers decides it, and
// there must be something left to qualify (docs/transforms/restrict.md).
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
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_RESTRICT_RESTRICTLEGALITY_H
