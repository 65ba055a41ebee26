//===- DistinctBuffers.h - do a kernel's buffers overlap? ------*- C++ -*-===//
//
// Rewrites that keep a buffer's element in a register (__restrict__, scalar
// replacement, the read-only path) are sound only when no other pointer the
// kernel uses reaches the same memory. The rule:
//   * every launch of the kernel in this file passes a distinct variable
//     (or null) for each pointer parameter, or parts of one variable at
//     distinct multiples of one size (`p, p + n, p + 2 * n`: x, y and z
//     arrays in one allocation) when that size is what the kernel gets as
//     a parameter and every access of each part is below it (a global
//     index under `if (i < n)`, or a loop counter from 0 below n); with no
//     launch in the file the promise rests on the kernel spec, whose
//     buffers are distinct;
//   * the kernel's address is not taken (other launches are out of reach);
//   * inside the kernel no pointer parameter is assigned from another.
// Distinct variables may still hold the same address; that is the rule's
// documented limit.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_DISTINCTBUFFERS_H
#define OPTIML_ANALYSIS_LEGALITY_DISTINCTBUFFERS_H

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

namespace optiml {

/// Success when \p Kernel's pointer parameters may be taken not to overlap
/// (above); else an Illegal LegalityError at the launch or assignment that
/// may make two of them alias.
llvm::Error checkDistinctBuffers(const clang::FunctionDecl &Kernel,
                                 clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_DISTINCTBUFFERS_H
