//===- ParsedTU.h - a CUDA translation unit parsed by Clang ---*- C++ -*-===//
//
// Owns the AST of one source file. Parsing goes through ClangTool so that a
// compilation database, `--` flags and --extra-arg behave as in every clang
// tool; the clang diagnostics go to stderr as the compiler prints them.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_FRONTEND_PARSEDTU_H
#define OPTIML_FRONTEND_PARSEDTU_H

#include "optiml/Frontend/CudaToolchain.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace optiml {

class ParsedTU {
public:
  /// Parses \p File with its command from \p DB, translated from nvcc where
  /// needed and completed with \p Toolchain's defaults. A source with errors
  /// is a BadInput error after its diagnostics have been printed.
  static llvm::Expected<std::unique_ptr<ParsedTU>>
  parse(const clang::tooling::CompilationDatabase &DB, llvm::StringRef File,
        const CudaToolchain &Toolchain);

  clang::ASTContext &context() { return AST->getASTContext(); }
  clang::SourceManager &sourceManager() { return AST->getSourceManager(); }
  clang::ASTUnit &unit() { return *AST; }
  /// The path of the main file as Clang saw it.
  llvm::StringRef mainFilePath() const { return MainFile; }

private:
  ParsedTU(std::unique_ptr<clang::ASTUnit> AST, std::string MainFile)
      : AST(std::move(AST)), MainFile(std::move(MainFile)) {}

  std::unique_ptr<clang::ASTUnit> AST;
  std::string MainFile;
};

} // namespace optiml

#endif // OPTIML_FRONTEND_PARSEDTU_H
