//===- StageText.cpp - text positions and guards for staging -------------===//

#include "StageText.h"
#include "optiml/Rewrite/Indentation.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace optiml;
using namespace clang;

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
