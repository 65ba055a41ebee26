//===- ParsedSource.h - a KernelSource with its Clang AST -----*- C++ -*-===//
//
// Every rewrite result is parsed again before it is used or shown: the text
// comes from the KernelSource (not the disk), under the original path, so
// the compile command, include paths and flags are exactly the original's.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_PARSEDSOURCE_H
#define OPTIML_REWRITE_PARSEDSOURCE_H

#include "optiml/IR/KernelSource.h"

#include "clang/Frontend/ASTUnit.h"

#include <memory>

namespace optiml {

class ParsedSource {
public:
  ParsedSource(const ParsedSource &) = delete;
  ParsedSource &operator=(const ParsedSource &) = delete;

  const KernelSource &source() const { return Source; }
  clang::ASTContext &context() { return AST->getASTContext(); }
  clang::SourceManager &sourceManager() { return AST->getSourceManager(); }

private:
  friend class SourceParser;
  explicit ParsedSource(KernelSource Source) : Source(std::move(Source)) {}

  /// Owns the text the AST's buffers point into: declared first so that it
  /// outlives the AST.
  KernelSource Source;
  std::unique_ptr<clang::ASTUnit> AST;
};

} // namespace optiml

#endif // OPTIML_REWRITE_PARSEDSOURCE_H
