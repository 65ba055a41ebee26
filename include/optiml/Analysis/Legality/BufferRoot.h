//===- BufferRoot.h - which pointer parameter an access reaches -*- C++ -*-===//
//
// Static findings and loop rewrites reason about an element access by the
// kernel buffer it lands in: `in[i]` is in `in`, and so is `row[k]` after
// `const float *row = in + r * n;`. Both ask here, so that they agree on
// which local pointers count as a view of a parameter.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_BUFFERROOT_H
#define OPTIML_ANALYSIS_LEGALITY_BUFFERROOT_H

#include "optiml/Analysis/Legality/IndexPolynomial.h"

#include "clang/AST/ASTContext.h"

#include <optional>

namespace optiml {

/// The kernel pointer parameter a pointer expression points into.
struct BufferRoot {
  const clang::ParmVarDecl *Param = nullptr;
  /// How far, in elements, the pointer is from the parameter; nothing when
  /// that is not a polynomial (`in + idx[r]`).
  std::optional<IndexPolynomial> Offset;
};

/// The root of \p Base, a subscript's base: a pointer parameter of
/// \p Kernel itself (offset 0), or a local pointer declared as `P + E` (or
/// `&P[E]`) from one and never reassigned; nothing for anything else (a
/// pointer read from memory, a global, a local assigned twice).
std::optional<BufferRoot> bufferRootOf(const clang::Expr &Base,
                                       const clang::FunctionDecl &Kernel,
                                       clang::ASTContext &Ctx);
/// The root of the pointer variable \p Pointer, by the same rule.
std::optional<BufferRoot> bufferRootOf(const clang::VarDecl &Pointer,
                                       const clang::FunctionDecl &Kernel,
                                       clang::ASTContext &Ctx);

/// The variable a pointer expression is based on, through parentheses,
/// casts and offsets (`(const float4 *)(row + 2)` -> `row`); else null.
const clang::VarDecl *pointerVariableOf(const clang::Expr &E);

/// The element \p E accesses, in elements from its buffer parameter's
/// address (its root's offset plus its index); nothing when either is not
/// a polynomial.
std::optional<IndexPolynomial>
elementIndexOf(const clang::ArraySubscriptExpr &E, const BufferRoot &Root,
               clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_BUFFERROOT_H
