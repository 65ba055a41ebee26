//===- UnusedAfterEdit.h - locals a rewrite leaves unused -----*- C++ -*-===//
//
// A rewrite that replaces an expression (a read redirected to a shared
// tile, a loop's index recomputed) can leave the locals it used with no
// other use: nvcc warns about them, and a project that builds with -Werror
// no longer builds. Every step's result goes through
// declarationsMadeUnused(), which finds them by comparing the source
// before and after the step; the user's own unused locals are left alone.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_UNUSEDAFTEREDIT_H
#define OPTIML_REWRITE_UNUSEDAFTEREDIT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <utility>
#include <vector>

namespace optiml {

/// The main-file byte ranges of \p After that remove the declarations of
/// the locals that the rewrite from \p Before to \p After made unused.
/// A local of a function of \p After's main file qualifies when
///  - nothing references it any more (references from the initializers of
///    declarations removed here do not count, so a chain goes at once),
///  - in the same function of \p Before (same qualified name, same rank
///    among the definitions of that name), the locals of its name were all
///    referenced: a local the user left unused stays, and so do its copies,
///  - its declaration is a statement of its own in a block (one declarator
///    of several goes with its comma, unless it is the first and has its
///    own `*` or `&`), and does nothing observable: no initializer and a
///    trivial type, or an initializer without side effects (no call but to
///    const or pure functions and CUDA's index variables, no constructor
///    that does more than initialize members with such values, no volatile
///    read), and a trivial destructor.
/// The ranges are sorted and do not overlap.
std::vector<std::pair<unsigned, unsigned>>
declarationsMadeUnused(clang::ASTContext &Before, clang::ASTContext &After);

/// The main-file byte range [first, second) that removes \p Decl: its whole
/// line, indentation and line break included, when nothing else is on it.
std::pair<unsigned, unsigned> removalRange(const clang::DeclStmt &Decl,
                                           clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_REWRITE_UNUSEDAFTEREDIT_H
