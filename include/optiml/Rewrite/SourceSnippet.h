//===- SourceSnippet.h - a statement's text, edited inside -----*- C++ -*-===//
//
// Coarsen and vectorize copy statements to new places (a jam loop, one lane
// of a vector) with a few names changed inside (`acc` becomes
// `acc[optiml_cy]`). The copy keeps the statement's own layout and
// comments: its lines are re-indented relative to its first line, and the
// changes are made on the AST nodes' token ranges, never by searching text.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_SOURCESNIPPET_H
#define OPTIML_REWRITE_SOURCESNIPPET_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace optiml {

class SourceSnippet {
public:
  /// \p S as written, through its closing `;` or `}`.
  static llvm::Expected<SourceSnippet> ofStmt(const clang::Stmt &S,
                                              const clang::ASTContext &Ctx);
  /// The tokens from \p Begin through the token at \p Last.
  static llvm::Expected<SourceSnippet> ofTokens(clang::SourceLocation Begin,
                                                clang::SourceLocation Last,
                                                const clang::ASTContext &Ctx);
  static llvm::Expected<SourceSnippet> ofExpr(const clang::Expr &E,
                                              const clang::ASTContext &Ctx) {
    return ofTokens(E.getBeginLoc(), E.getEndLoc(), Ctx);
  }

  /// The file offset just past \p S (its `;` included).
  static llvm::Expected<unsigned> endOffset(const clang::Stmt &S,
                                            const clang::ASTContext &Ctx);
  /// The file offset of \p Loc, which must be written in the main file
  /// (directly or as a macro argument).
  static llvm::Expected<unsigned> offsetOf(clang::SourceLocation Loc,
                                           const clang::ASTContext &Ctx);

  /// Replaces the tokens of \p Range, which lies inside the snippet.
  llvm::Error replace(clang::SourceRange Range, std::string Text);
  /// Inserts \p Text right after the token at \p Loc.
  llvm::Error insertAfter(clang::SourceLocation Loc, std::string Text);

  /// The edited text.
  std::string text() const;
  /// The edited text, one element per line: continuation lines lose the
  /// indentation of the snippet's first statement line, preprocessor lines
  /// all of theirs; trailing blanks are dropped.
  std::vector<std::string> lines() const;
  /// The edited text on one line, its lines trimmed and joined by a space
  /// (a condition or an index written over several lines).
  std::string oneLine() const;

private:
  SourceSnippet(const clang::ASTContext &Ctx, unsigned Begin, std::string Raw,
                unsigned Indent)
      : Ctx(&Ctx), Begin(Begin), Raw(std::move(Raw)), Indent(Indent) {}
  llvm::Error edit(unsigned Offset, unsigned Length, std::string Text);

  const clang::ASTContext *Ctx;
  unsigned Begin;  ///< File offset of Raw's first character.
  std::string Raw; ///< The text as written.
  unsigned Indent; ///< Blanks before the first statement line.
  /// Offset in Raw -> (length replaced, new text); never overlapping.
  std::map<unsigned, std::pair<unsigned, std::string>> Edits;
};

} // namespace optiml

#endif // OPTIML_REWRITE_SOURCESNIPPET_H
