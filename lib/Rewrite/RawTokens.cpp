//===- RawTokens.cpp - tokens of CUDA text without a parse ---------------===//

#include "optiml/Rewrite/RawTokens.h"

#include "clang/Lex/Lexer.h"

using namespace optiml;
using namespace clang;

LangOptions RawTokens::cudaLangOptions() {
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = 1;
  LO.CUDA = 1;
  LO.LineComment = 1;
  LO.Bool = 1;
  return LO;
}

RawTokens::RawTokens(llvm::StringRef Input) {
  // The lexer reads up to a terminating NUL, which a StringRef may lack.
  std::string Text = Input.str();
  LangOptions LO = cudaLangOptions();
  Lexer Raw(SourceLocation(), LO, Text.data(), Text.data(),
            Text.data() + Text.size());
  Token Tok;
  bool InDirective = false;
  while (true) {
    bool AtEnd = Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof))
      break;
    unsigned Offset = Tok.getLocation().getRawEncoding();
    bool StartsLine = Tok.isAtStartOfLine() || Tokens.empty();
    if (StartsLine)
      InDirective = Tok.is(tok::hash);
    std::string Spelling = Tok.is(tok::raw_identifier)
                               ? Tok.getRawIdentifier().str()
                               : Text.substr(Offset, Tok.getLength());
    Tokens.push_back({Tok.getKind(), std::move(Spelling), Offset,
                      Offset + Tok.getLength(), StartsLine, InDirective});
    if (AtEnd)
      break;
  }
}

std::vector<RawDirective> RawTokens::directives() const {
  std::vector<RawDirective> Out;
  for (size_t I = 0; I < Tokens.size(); ++I) {
    if (!Tokens[I].InDirective || !Tokens[I].StartsLine)
      continue;
    RawDirective D{"", "#", Tokens[I].Offset};
    for (size_t J = I + 1;
         J < Tokens.size() && Tokens[J].InDirective && !Tokens[J].StartsLine;
         ++J) {
      if (J == I + 1)
        D.Name = Tokens[J].Text;
      // Spaced as written, whitespace runs (and line continuations) as one.
      D.Text +=
          (Tokens[J].Offset > Tokens[J - 1].End ? " " : "") + Tokens[J].Text;
    }
    Out.push_back(std::move(D));
  }
  return Out;
}

std::string RawTokens::normalized() const {
  std::string Out;
  for (size_t I = 0; I < Tokens.size(); ++I) {
    // A directive ends at its line's end, so that line break is kept.
    if (I > 0)
      Out += Tokens[I].StartsLine &&
                     (Tokens[I - 1].InDirective || Tokens[I].InDirective)
                 ? '\n'
                 : ' ';
    Out += Tokens[I].Text;
  }
  return Out;
}
