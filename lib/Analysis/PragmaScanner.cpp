//===- PragmaScanner.cpp - find `#pragma optiml` lines -------------------===//

#include "optiml/Analysis/PragmaScanner.h"

#include "clang/Lex/Lexer.h"

using namespace optiml;
using namespace clang;

/// The directive's text from \p From to its end of line, following
/// backslash-newline continuations, with runs of blanks collapsed.
std::string PragmaScanner::restOfDirective(StringRef Buffer, unsigned From) {
  std::string Out;
  size_t I = From;
  while (I < Buffer.size() && Buffer[I] != '\n') {
    if (Buffer[I] == '\\') {
      size_t J = I + 1;
      while (J < Buffer.size() &&
             (Buffer[J] == ' ' || Buffer[J] == '\t' || Buffer[J] == '\r'))
        ++J;
      if (J < Buffer.size() && Buffer[J] == '\n') {
        if (!Out.empty() && Out.back() != ' ')
          Out.push_back(' ');
        I = J + 1;
        continue;
      }
    }
    char C = Buffer[I++];
    if (C == '\t' || C == '\r')
      C = ' ';
    if (C != ' ' || (!Out.empty() && Out.back() != ' '))
      Out.push_back(C);
  }
  return StringRef(Out).trim().str();
}

std::vector<PragmaScanner::Pragma>
PragmaScanner::scan(StringRef Buffer, const LangOptions &LangOpts) {
  std::vector<Pragma> Out;
  Lexer Lex(SourceLocation(), LangOpts, Buffer.begin(), Buffer.begin(),
            Buffer.end());
  Token Tok;
  // The raw lexer has no SourceManager: a token's offset is where the lexer
  // stands after it, less its length.
  auto next = [&] {
    Lex.LexFromRawLexer(Tok);
    return static_cast<unsigned>(Lex.getBufferLocation() - Buffer.begin()) -
           Tok.getLength();
  };
  auto rawIs = [&](StringRef Word) {
    return Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == Word;
  };
  for (unsigned Offset = next(); Tok.isNot(tok::eof); Offset = next()) {
    if (!Tok.is(tok::hash) || !Tok.isAtStartOfLine())
      continue;
    unsigned HashOffset = Offset;
    next();
    if (!rawIs("pragma") || Tok.isAtStartOfLine())
      continue;
    unsigned WordOffset = next();
    if (!rawIs("optiml") || Tok.isAtStartOfLine())
      continue;
    Pragma P;
    P.Offset = HashOffset;
    StringRef Before = Buffer.substr(0, HashOffset);
    P.Line = Before.count('\n') + 1;
    P.Column = HashOffset - (Before.rfind('\n') + 1) + 1;
    P.Clauses = restOfDirective(Buffer, WordOffset + Tok.getLength());
    Out.push_back(std::move(P));
  }
  return Out;
}
