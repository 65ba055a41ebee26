//===- SourceParser.cpp - parse KernelSources with one command -----------===//

#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Frontend/BuildAST.h"

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
  // The AST keeps referring to the mapped text, which Parsed owns.
  auto AST = buildAST(DB, Path, Toolchain, Parsed->Source.text(), OnError,
                      Source.path(), Diagnostics);
  if (!AST)
    return AST.takeError();
  Parsed->AST = std::move(*AST);
  return Parsed;
}
