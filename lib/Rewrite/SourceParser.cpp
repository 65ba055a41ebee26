//===- SourceParser.cpp - parse KernelSources with one command -----------===//

#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Frontend/NvccFlags.h"

#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"

using namespace optiml;
using namespace clang;

llvm::Expected<std::unique_ptr<ParsedSource>>
SourceParser::parse(const KernelSource &Source, ErrorKind OnError,
                    clang::DiagnosticConsumer *Diagnostics) const {
  llvm::SmallString<256> Path(Source.path());
  if (std::error_code EC = llvm::sys::fs::make_absolute(Path))
    return makeError(ErrorKind::BadInput, Source.path() + ": " + EC.message());
  if (DB.getCompileCommands(Path).empty())
    return makeError(ErrorKind::BadInput,
                     Source.path() + ": no compile command for this file in "
                                     "the compilation database");

  std::unique_ptr<ParsedSource> Parsed(new ParsedSource(Source));
  tooling::ClangTool Tool(DB, {std::string(Path)});
  Tool.setPrintErrorMessage(false);
  if (Diagnostics)
    Tool.setDiagnosticConsumer(Diagnostics);
  Tool.mapVirtualFile(Path, Parsed->Source.text());
  Tool.appendArgumentsAdjuster(
      [](const tooling::CommandLineArguments &Args, llvm::StringRef) {
        return translateNvccArgs(Args);
      });
  Tool.appendArgumentsAdjuster(Toolchain.defaultsAdjuster());

  std::vector<std::unique_ptr<ASTUnit>> ASTs;
  int Status = Tool.buildASTs(ASTs);
  if (ASTs.empty())
    return makeError(OnError, Source.path() + ": clang could not run on it");
  Parsed->AST = std::move(ASTs.front());
  unsigned Errors = Parsed->AST->getDiagnostics().getClient()->getNumErrors();
  if (Status != 0 || Parsed->AST->getDiagnostics().hasErrorOccurred())
    return makeError(OnError, Source.path() + ": the source does not parse (" +
                                  llvm::Twine(Errors) + " error" +
                                  (Errors == 1 ? "" : "s") + " above)");
  return Parsed;
}
