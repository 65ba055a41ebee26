//===- UnrollLegality.h - may a loop get `#pragma unroll N`? --*- C++ -*-===//
//
// `#pragma unroll N` never changes what a loop computes (the compiler keeps
// the remainder iterations), so the only questions are whether the pragma
// can be placed: on a for-loop, written in the main file, without a loop
// pragma of its own.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_UNROLL_UNROLLLEGALITY_H
#define OPTIML_TRANSFORMS_UNROLL_UNROLLLEGALITY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "llvm/Support/Error.h"

namespace optiml {

class UnrollLegality {
public:
  /// Success, or NotApplicable with the reason.
  static llvm::Error check(const clang::Stmt &Loop, llvm::StringRef Site,
                           clang::ASTContext &Ctx);

  /// The loop-hint pragma (`#pragma unroll`, `#pragma nounroll`, `#pragma
  /// clang loop unroll...`) already attached to \p Loop, if any.
  static const clang::LoopHintAttr *existingHint(const clang::Stmt &Loop,
                                                 clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_UNROLL_UNROLLLEGALITY_H
