//===- StageText.cpp - text positions and guards for staging -------------===//

#include "StageText.h"
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

std::string optiml::indentAt(SourceLocation L, const ASTContext &Ctx) {
  return lineIndentOf(L, Ctx);
}

std::string optiml::blockThreadIndex(const std::array<uint64_t, 3> &B) {
  if (B[2] > 1)
    return "(threadIdx.z * " + std::to_string(B[1]) + " + threadIdx.y) * " +
           std::to_string(B[0]) + " + threadIdx.x";
  if (B[1] > 1)
    return "threadIdx.y * " + std::to_string(B[0]) + " + threadIdx.x";
  return "threadIdx.x";
}

/// `T v = init;` becomes `T v = (live) ? init : zero;`.
static llvm::Error guardDeclaration(const GuardedDeclaration &D, EditSet &Edits,
                                    const ASTContext &Ctx) {
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
  std::string In = indentAt(S.getBeginLoc(), Ctx);
  if (llvm::Error E =
          Edits.addText(SM, insertionOffsetOf(S, Ctx), 0, Guard + "{\n" + In))
    return E;
  return Edits.addText(SM, endOffsetOf(S, true, Ctx), 0, "\n" + In + "}");
}

/// `if (C) {` becomes `{`. A branch without braces on the next line gets
/// them; one on the same line (`if (C) for (...)`) declares nothing at
/// its level and simply loses its `if (C) `.
static llvm::Error openGuard(const IfStmt &If, EditSet &Edits,
                             const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  unsigned Begin = offsetOf(If.getBeginLoc(), Ctx);
  const Stmt &Then = *If.getThen();
  unsigned ThenBegin = offsetOf(Then.getBeginLoc(), Ctx);
  if (isa<CompoundStmt>(Then))
    return Edits.addText(SM, Begin, ThenBegin - Begin, "");
  unsigned Paren = offsetOf(If.getRParenLoc(), Ctx) + 1;
  if (!SM.getBufferData(SM.getMainFileID())
           .slice(Paren, ThenBegin)
           .contains('\n'))
    return Edits.addText(SM, Begin, ThenBegin - Begin, "");
  if (llvm::Error E = Edits.addText(SM, Begin, Paren - Begin, "{"))
    return E;
  return Edits.addText(SM, endOffsetOf(Then, true, Ctx), 0,
                       "\n" + indentAt(If.getBeginLoc(), Ctx) + "}");
}

llvm::Error optiml::writeGuardSplit(const GuardSplit &Split, EditSet &Edits,
                                    const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const IfStmt *If : Split.Opened)
    if (llvm::Error E = openGuard(*If, Edits, Ctx))
      return E;
  for (const GuardSplit::Guarded &G : Split.Statements)
    if (llvm::Error E = guardStatement(*G.S, G.Live, Edits, Ctx))
      return E;
  for (const GuardedDeclaration &D : Split.Declarations)
    if (llvm::Error E = guardDeclaration(D, Edits, Ctx))
      return E;
  return llvm::Error::success();
}
