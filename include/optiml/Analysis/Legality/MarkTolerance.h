//===- MarkTolerance.h - the tolerance of the mark --------------*- C++ -*-===//
//
// A rewrite that rounds inputs to fewer bits (tensor cores with tf32, bf16
// or half inputs) can only pass verification when the spec's tolerance
// admits the error it brings. The tolerance the legality can see is the
// one in the kernel's `#pragma optiml` mark; without a tolerance(...)
// clause the spec's defaults hold (a sidecar's tolerance is not seen).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_MARKTOLERANCE_H
#define OPTIML_ANALYSIS_LEGALITY_MARKTOLERANCE_H

#include "clang/AST/Decl.h"

namespace optiml {

/// Per-element relative and absolute tolerance and the relative-norm bound
/// (KernelSpec's RTol, ATol and NormTol).
struct SpecTolerance {
  double RTol = 0, ATol = 0, Norm = 0;
  /// Whether the mark gave any of them (else all are the spec defaults).
  bool FromMark = false;
};

/// \p Kernel's tolerance as its mark's tolerance(rtol = R, atol = A,
/// norm = N) gives it, each value not given (or not a plain number) being
/// the spec's default.
SpecTolerance markTolerance(const clang::FunctionDecl &Kernel,
                            clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_MARKTOLERANCE_H
