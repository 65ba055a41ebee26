//===- LoopLines.h - lines of code written in place of a loop ---*- C++ -*-===//
//
// Transforms that replace a for-loop with several statements (explicit
// unrolling, loop vectorization) write them line by line, nested as the
// loop's own body is: the indentation of one nesting level is read off the
// loop's first body statement, and every line after the first is placed
// at the loop's indentation.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_LOOPLINES_H
#define OPTIML_REWRITE_LOOPLINES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace optiml {

class LoopLines {
public:
  LoopLines(const clang::ForStmt &For, const clang::ASTContext &Ctx);

  /// \p Text at nesting \p Depth relative to the loop's line.
  void line(unsigned Depth, llvm::StringRef Text);
  /// Snippet lines at \p Depth; a preprocessor line takes the indentation
  /// of the statement below it.
  void lines(unsigned Depth, llvm::ArrayRef<std::string> Texts);
  /// Puts the lines written so far in braces, one level in.
  void wrapInBlock();
  void clear() { Out.clear(); }
  /// The replacement text: the first line where the loop starts, the
  /// others at the loop's indentation.
  std::string text() const;

private:
  std::string Base; ///< The indentation of the loop's line.
  std::string Step; ///< One level of nesting, as the loop's body uses.
  std::vector<std::string> Out; ///< Lines, relative to the loop's line.
};

} // namespace optiml

#endif // OPTIML_REWRITE_LOOPLINES_H
