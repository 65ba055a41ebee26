//===- BuildAST.cpp - one file parsed the way the tool parses -------------===//

#include "optiml/Frontend/BuildAST.h"
#include "optiml/Frontend/NvccFlags.h"

#include "clang/Tooling/Tooling.h"

using namespace optiml;
using namespace clang;

llvm::Expected<std::unique_ptr<ASTUnit>>
optiml::buildAST(const tooling::CompilationDatabase &DB, llvm::StringRef File,
                 const CudaToolchain &Toolchain,
                 std::optional<llvm::StringRef> Contents, ErrorKind OnError,
                 llvm::StringRef Name, DiagnosticConsumer *Diagnostics) {
  tooling::ClangTool Tool(DB, {File.str()});
  Tool.setPrintErrorMessage(false);
  if (Diagnostics)
    Tool.setDiagnosticConsumer(Diagnostics);
  if (Contents)
    Tool.mapVirtualFile(File, *Contents);
  Tool.appendArgumentsAdjuster(
      [](const tooling::CommandLineArguments &Args, llvm::StringRef) {
        return translateNvccArgs(Args);
      });
  Tool.appendArgumentsAdjuster(Toolchain.defaultsAdjuster());

  std::vector<std::unique_ptr<ASTUnit>> ASTs;
  int Status = Tool.buildASTs(ASTs);
  if (ASTs.empty())
    return makeError(OnError, Name + ": clang could not run on this file");
  std::unique_ptr<ASTUnit> AST = std::move(ASTs.front());
  unsigned Errors = AST->getDiagnostics().getClient()->getNumErrors();
  if (Status != 0 || AST->getDiagnostics().hasErrorOccurred())
    return makeError(OnError, Name + ": the source does not parse (" +
                                  llvm::Twine(Errors) + " error" +
                                  (Errors == 1 ? "" : "s") + " above)");
  return AST;
}
