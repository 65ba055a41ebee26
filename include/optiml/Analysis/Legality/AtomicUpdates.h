//===- AtomicUpdates.h - a buffer's atomic read-modify-writes ---*- C++ -*-===//
//
// Threads that update one element with atomicAdd (or Sub, Min, Max, And,
// Or, Xor, Inc, Dec) and ignore the old value do not depend on each other's
// order: integer updates give the same bits in any order, and the order of
// floating-point atomics is not fixed to begin with. Transforms that move
// such updates between threads (coarsen) or into a block's private copy
// (privatize-atomics) ask here which references to a buffer are updates of
// this kind.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_ATOMICUPDATES_H
#define OPTIML_ANALYSIS_LEGALITY_ATOMICUPDATES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace optiml {

/// An atomic update of an element of a buffer: the call, the reference to
/// the buffer in its address, and the element's index.
struct AtomicUpdate {
  const clang::CallExpr *Call = nullptr;
  const clang::DeclRefExpr *Buffer = nullptr;
  const clang::Expr *Index = nullptr;
};

/// The update \p Call makes when it is an atomic read-modify-write (by
/// name, with two arguments, atomicInc/Dec included) whose address is
/// `&buf[i]`, `buf + i` or `i + buf` for a variable `buf`; nothing
/// otherwise. Whether its old value is used is not checked here.
std::optional<AtomicUpdate> atomicUpdateOf(const clang::CallExpr &Call);

/// Whether every reference to \p Buffer in \p Body is the address of an
/// atomic update whose old value is unused (and there is at least one).
bool onlyAtomicUpdates(const clang::VarDecl &Buffer, const clang::Stmt &Body,
                       clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_ATOMICUPDATES_H
