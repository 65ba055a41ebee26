//===- SourceText.cpp - positions and text of AST nodes ------------------===//

#include "optiml/Analysis/SourceText.h"

#include "clang/Lex/Lexer.h"

using namespace optiml;
using namespace clang;

SourcePos optiml::positionOf(SourceLocation Loc, const SourceManager &SM) {
  SourcePos Pos;
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return Pos;
  Pos.File = P.getFilename();
  Pos.Line = P.getLine();
  Pos.Column = P.getColumn();
  return Pos;
}

static std::string collapseWhitespace(StringRef Text) {
  std::string Out;
  bool Space = false;
  for (char C : Text) {
    if (isspace(static_cast<unsigned char>(C))) {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out.push_back(' ');
    Space = false;
    Out.push_back(C);
  }
  return Out;
}

std::string optiml::textOf(SourceRange Range, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Chars = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Range), SM, Ctx.getLangOpts());
  if (Chars.isInvalid())
    return "";
  return collapseWhitespace(Lexer::getSourceText(Chars, SM, Ctx.getLangOpts()));
}

std::string optiml::textBetween(SourceLocation Begin, SourceLocation End,
                                const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Chars = Lexer::makeFileCharRange(
      CharSourceRange::getCharRange(Begin, End), SM, Ctx.getLangOpts());
  if (Chars.isInvalid())
    return "";
  return collapseWhitespace(Lexer::getSourceText(Chars, SM, Ctx.getLangOpts()));
}
