//===- BuildAST.h - one file parsed the way the tool parses -----*- C++ -*-===//
//
// The user's file and every rewrite of it go through the same ClangTool
// set-up (compilation database, `--` flags, nvcc flag translation, CUDA
// defaults), so one function does it; clang's diagnostics go to stderr as
// the compiler prints them.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_FRONTEND_BUILDAST_H
#define OPTIML_FRONTEND_BUILDAST_H

#include "optiml/Frontend/CudaToolchain.h"
#include "optiml/Support/Error.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <optional>

namespace optiml {

/// The AST of \p File (an absolute path DB has a command for), its nvcc
/// flags translated and \p Toolchain's defaults added. \p Contents, when
/// given, stands for the file's text and must outlive the AST. When clang
/// cannot run or the source has errors, an error of kind \p OnError whose
/// message starts with \p Name. Clang's diagnostics go to \p Diagnostics
/// when set (a candidate judged quietly), else to stderr.
llvm::Expected<std::unique_ptr<clang::ASTUnit>>
buildAST(const clang::tooling::CompilationDatabase &DB, llvm::StringRef File,
         const CudaToolchain &Toolchain,
         std::optional<llvm::StringRef> Contents, ErrorKind OnError,
         llvm::StringRef Name,
         clang::DiagnosticConsumer *Diagnostics = nullptr);

} // namespace optiml

#endif // OPTIML_FRONTEND_BUILDAST_H
