//===- CeilDiv.h - grid sizes written as ceil(N / B) ----------*- C++ -*-===//
//
// A launch covers N threads with ceil(N / B) blocks of B. When B changes,
// the grid must change with it, which is only possible when the grid is
// written in a form whose N and B can be told apart.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_CEILDIV_H
#define OPTIML_ANALYSIS_LEGALITY_CEILDIV_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace optiml {

struct CeilDiv {
  /// N as written; its text is kept when the grid is rewritten.
  const clang::Expr *Count = nullptr;
  /// For `ceil_div(N, B)`-like calls, the callee; null for arithmetic.
  const clang::Expr *Callee = nullptr;
};

/// Recognizes \p E as ceil(N / \p Block) written as `(N + B - 1) / B`,
/// `(N + (B - 1)) / B`, `(N - 1) / B + 1` or a two-argument call whose
/// name contains "div" or "ceil" (`ceil_div(N, B)`, `DIV_UP(N, B)`), where B
/// evaluates to \p Block.
std::optional<CeilDiv> matchCeilDiv(const clang::Expr *E, uint64_t Block,
                                    const clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_CEILDIV_H
