//===- KernelIdentifiers.cpp - names a kernel already spells -------------===//

#include "optiml/Rewrite/KernelIdentifiers.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace optiml;
using namespace clang;

llvm::StringSet<> optiml::identifiersOf(const FunctionDecl &Kernel,
                                        ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = SM.getExpansionRange(Kernel.getSourceRange());
  auto [File, Begin] = SM.getDecomposedLoc(Range.getBegin());
  unsigned End = SM.getFileOffset(
      Lexer::getLocForEndOfToken(Range.getEnd(), 0, SM, Ctx.getLangOpts()));
  llvm::StringRef Buffer = SM.getBufferData(File);
  // The raw lexer skips comments and does not expand macros.
  Lexer Raw(SM.getLocForStartOfFile(File), Ctx.getLangOpts(), Buffer.begin(),
            Buffer.begin() + Begin, Buffer.end());
  llvm::StringSet<> Names;
  Token Tok;
  while (true) {
    bool AtEnd = Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof) || SM.getFileOffset(Tok.getLocation()) >= End)
      break;
    if (Tok.is(tok::raw_identifier))
      Names.insert(Tok.getRawIdentifier());
    if (AtEnd)
      break;
  }
  return Names;
}
