//===- TestedAlternative.h - a rewrite taken where a test holds -*- C++ -*-===//
//
// Some rewrites are exact only for some launches (a block of a power-of-two
// width) and the file does not show every launch. They keep the original
// statement for the others:
//
//   if (TEST) {
//     the rewritten statement
//   } else {
//     the statement as written
//   }
//
// with TEST one answer for the whole block, so barriers inside either
// branch are still reached by every thread.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_TESTEDALTERNATIVE_H
#define OPTIML_REWRITE_TESTEDALTERNATIVE_H

#include "optiml/Rewrite/EditSet.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

namespace optiml {

/// \p Text with \p More added after each of its newlines.
std::string indentedBy(llvm::StringRef Text, llvm::StringRef More);

/// The statement that holds \p S in its block: the attributed statement of
/// a loop pragma on it, or \p S itself.
const clang::Stmt &withPragma(const clang::Stmt &S, clang::ASTContext &Ctx);

/// The source text of \p S with its pragma, as written.
std::string writtenText(const clang::Stmt &S, clang::ASTContext &Ctx);

/// Replaces \p S by \p New, unindented text that is written at the
/// indentation of \p S's line. A loop pragma on \p S goes too when \p
/// WithPragma; else it stays, over New.
llvm::Error replaceWritten(const clang::Stmt &S, llvm::StringRef New,
                           bool WithPragma, EditSet &Edits,
                           clang::ASTContext &Ctx);

/// Replaces \p S (with its pragma) by `if (Test) { New } else { S }`;
/// \p New's lines after its first carry the indentation of \p S's line, as
/// text cut from the file does; the branches indent it one step more.
llvm::Error writeTestedAlternative(const clang::Stmt &S, llvm::StringRef Test,
                                   llvm::StringRef New, EditSet &Edits,
                                   clang::ASTContext &Ctx);

/// Whether \p S is (inside) the statement an earlier rewrite kept for
/// where \p Test fails: the else branch of `if (Test)`. The same rewrite
/// would test it again.
bool isKeptWhereTestFails(const clang::Stmt &S, llvm::StringRef Test,
                          clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_REWRITE_TESTEDALTERNATIVE_H
