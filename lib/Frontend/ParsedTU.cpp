//===- ParsedTU.cpp - a CUDA translation unit parsed by Clang ------------===//

#include "optiml/Frontend/ParsedTU.h"
#include "optiml/Frontend/BuildAST.h"
#include "optiml/Support/Error.h"

#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"

using namespace optiml;
using namespace clang;

llvm::Expected<std::unique_ptr<ParsedTU>>
ParsedTU::parse(const tooling::CompilationDatabase &DB, llvm::StringRef File,
                const CudaToolchain &Toolchain) {
  if (!llvm::sys::fs::exists(File))
    return makeError(ErrorKind::BadInput, File + ": no such file");
  if (llvm::sys::fs::is_directory(File))
    return makeError(ErrorKind::BadInput, File + ": a folder, not a source file");
  if (DB.getCompileCommands(File).empty())
    return makeError(ErrorKind::BadInput,
                     File + ": no compile command for this file in the "
                            "compilation database");

  auto AST =
      buildAST(DB, File, Toolchain, std::nullopt, ErrorKind::BadInput, File);
  if (!AST)
    return AST.takeError();
  std::string Main((*AST)->getMainFileName());
  return std::unique_ptr<ParsedTU>(new ParsedTU(std::move(*AST), Main));
}
