//===- ReturnFoldText.cpp - early returns turned into guards, as text -----===//

#include "optiml/Rewrite/ReturnFoldText.h"
#include "optiml/Rewrite/Indentation.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace optiml;
using namespace clang;

unsigned optiml::endOffsetOf(const Stmt &S, bool WithSemi,
                             const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = Lexer::getLocForEndOfToken(
      SM.getExpansionLoc(S.getEndLoc()), 0, SM, Ctx.getLangOpts());
  unsigned Off = offsetOf(End, Ctx);
  if (!WithSemi)
    return Off;
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  unsigned I = Off;
  while (I < Buf.size() && (Buf[I] == ' ' || Buf[I] == '\t'))
    ++I;
  return I < Buf.size() && Buf[I] == ';' ? I + 1 : Off;
}

unsigned optiml::insertionOffsetOf(const Stmt &S, const ASTContext &Ctx) {
  unsigned Off = offsetOf(S.getBeginLoc(), Ctx);
  if (!isa<AttributedStmt>(S))
    return Off;
  // A pragma's attribute starts at its first token after `#pragma`.
  llvm::StringRef Buf = Ctx.getSourceManager().getBufferData(
      Ctx.getSourceManager().getMainFileID());
  unsigned Start = Off;
  while (Start > 0 && Buf[Start - 1] != '\n')
    --Start;
  while (Start < Off && (Buf[Start] == ' ' || Buf[Start] == '\t'))
    ++Start;
  return Start;
}

/// `T v = init;` becomes `T v = (live) ? init : zero;`.
llvm::Error optiml::guardDeclaration(const GuardedDeclaration &D,
                                     EditSet &Edits, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Expr &Init = *D.Var->getInit();
  if (llvm::Error E = Edits.addText(SM, offsetOf(Init.getBeginLoc(), Ctx), 0,
                                    "(" + D.Live + ") ? "))
    return E;
  return Edits.addText(SM, endOffsetOf(Init, false, Ctx), 0, " : " + D.Zero);
}

llvm::Error optiml::writeReturnFold(const ReturnFold &Fold, EditSet &Edits,
                                    const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  for (const IfStmt *If : Fold.EarlyReturns) {
    // The whole line goes: its indentation, the statement, its newline.
    unsigned Begin = offsetOf(If->getBeginLoc(), Ctx);
    unsigned End = endOffsetOf(*If, true, Ctx);
    while (Begin > 0 && (Buf[Begin - 1] == ' ' || Buf[Begin - 1] == '\t'))
      --Begin;
    while (End < Buf.size() && (Buf[End] == ' ' || Buf[End] == '\t'))
      ++End;
    if (End < Buf.size() && Buf[End] == '\n')
      ++End;
    if (llvm::Error E = Edits.addText(SM, Begin, End - Begin, ""))
      return E;
  }
  for (const Stmt *S : Fold.Guarded)
    if (llvm::Error E = guardStatement(*S, Fold.Live, Edits, Ctx))
      return E;
  for (const GuardedDeclaration &D : Fold.Declarations)
    if (llvm::Error E = guardDeclaration(D, Edits, Ctx))
      return E;
  return llvm::Error::success();
}

llvm::Error optiml::guardStatement(const Stmt &S, llvm::StringRef Live,
                                   EditSet &Edits, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Guard = ("if (" + Live + ") ").str();
  if (!isa<AttributedStmt>(S))
    return Edits.addText(SM, offsetOf(S.getBeginLoc(), Ctx), 0, Guard);
  // A pragma must start its line: the guard gets a block of its own.
  std::string In = lineIndentOf(S.getBeginLoc(), Ctx);
  if (llvm::Error E =
          Edits.addText(SM, insertionOffsetOf(S, Ctx), 0, Guard + "{\n" + In))
    return E;
  return Edits.addText(SM, endOffsetOf(S, true, Ctx), 0, "\n" + In + "}");
}
