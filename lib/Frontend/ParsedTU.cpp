//===- ParsedTU.cpp - a CUDA translation unit parsed by Clang ------------===//

#include "optiml/Frontend/ParsedTU.h"
#include "optiml/Frontend/NvccFlags.h"
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
  if (DB.getCompileCommands(File).empty())
    return makeError(ErrorKind::BadInput,
                     File + ": no compile command for this file in the "
                            "compilation database");

  tooling::ClangTool Tool(DB, {File.str()});
  Tool.setPrintErrorMessage(false);
  Tool.appendArgumentsAdjuster(
      [](const tooling::CommandLineArguments &Args, llvm::StringRef) {
        return translateNvccArgs(Args);
      });
  Tool.appendArgumentsAdjuster(Toolchain.defaultsAdjuster());

  std::vector<std::unique_ptr<ASTUnit>> ASTs;
  int Status = Tool.buildASTs(ASTs);
  if (ASTs.empty())
    return makeError(ErrorKind::BadInput,
                     File + ": clang could not run on this file");
  std::unique_ptr<ASTUnit> AST = std::move(ASTs.front());
  unsigned Errors = AST->getDiagnostics().getClient()->getNumErrors();
  if (Status != 0 || AST->getDiagnostics().hasErrorOccurred())
    return makeError(ErrorKind::BadInput,
                     File + ": the source does not parse (" +
                         llvm::Twine(Errors) + " error" +
                         (Errors == 1 ? "" : "s") + " above)");
  std::string Main(AST->getMainFileName());
  return std::unique_ptr<ParsedTU>(new ParsedTU(std::move(AST), Main));
}
