//===- BodyWriter.h - a new kernel body, line by line ----------*- C++ -*-===//
//
// Coarsen and vectorize print a kernel body anew. The result should read as
// if written by the kernel's author: it keeps the body's own indentation
// (the column of its closing brace and the step its statements use).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_BODYWRITER_H
#define OPTIML_REWRITE_BODYWRITER_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <string>
#include <vector>

namespace optiml {

class BodyWriter {
public:
  /// Starts a body laid out like \p Body: `{` written.
  BodyWriter(const clang::CompoundStmt &Body, const clang::ASTContext &Ctx);

  /// One line at nesting \p Depth (1 for the body's statements).
  void line(unsigned Depth, llvm::StringRef Text);
  /// Several lines at \p Depth, each keeping its own extra indentation.
  void lines(unsigned Depth, llvm::ArrayRef<std::string> Texts);
  /// Appends \p Text to the last line written (a trailing comment).
  void appendToLast(llvm::StringRef Text);

  /// The body, with its closing `}`.
  std::string finish();

private:
  std::string Base; ///< Indentation of the closing brace.
  std::string Step; ///< One level of nesting.
  std::string Out;
};

} // namespace optiml

#endif // OPTIML_REWRITE_BODYWRITER_H
