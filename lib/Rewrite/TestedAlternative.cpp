//===- TestedAlternative.cpp - a rewrite taken only where a test holds ----===//

#include "optiml/Rewrite/TestedAlternative.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"
#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/ReturnFoldText.h"

#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

std::string optiml::indentedBy(llvm::StringRef Text, llvm::StringRef More) {
  std::string Out;
  for (char C : Text) {
    Out += C;
    if (C == '\n')
      Out += More;
  }
  return Out;
}

const Stmt &optiml::withPragma(const Stmt &S, ASTContext &Ctx) {
  if (const auto *A =
          parentOf(DynTypedNode::create(S), Ctx).get<AttributedStmt>())
    return *A;
  return S;
}

/// The main-file offsets [begin, end) of \p S with its pragma.
static std::pair<unsigned, unsigned> extentOf(const Stmt &S, ASTContext &Ctx) {
  const Stmt &Whole = withPragma(S, Ctx);
  return {insertionOffsetOf(Whole, Ctx), endOffsetOf(Whole, false, Ctx)};
}

std::string optiml::writtenText(const Stmt &S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto [Begin, End] = extentOf(S, Ctx);
  return SM.getBufferData(SM.getMainFileID()).slice(Begin, End).str();
}

llvm::Error optiml::replaceWritten(const Stmt &S, llvm::StringRef New,
                                   bool WithPragma, EditSet &Edits,
                                   ASTContext &Ctx) {
  auto [Begin, End] = extentOf(S, Ctx);
  if (!WithPragma)
    Begin = offsetOf(S.getBeginLoc(), Ctx);
  std::string In = lineIndentOf(S.getBeginLoc(), Ctx);
  return Edits.addText(Ctx.getSourceManager(), Begin, End - Begin,
                       indentedBy(New, In));
}

llvm::Error optiml::writeTestedAlternative(const Stmt &S, llvm::StringRef Test,
                                           llvm::StringRef New, EditSet &Edits,
                                           ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto [Begin, End] = extentOf(S, Ctx);
  std::string In = lineIndentOf(S.getBeginLoc(), Ctx);
  std::string Text = ("if (" + Test + ") {\n" + In + "  ").str() +
                     indentedBy(New, "  ") + "\n" + In + "} else {\n" + In +
                     "  " + indentedBy(writtenText(S, Ctx), "  ") + "\n" + In +
                     "}";
  return Edits.addText(SM, Begin, End - Begin, Text);
}

bool optiml::isKeptWhereTestFails(const Stmt &S, llvm::StringRef Test,
                                  ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Stmt *Around : enclosingStmts(S, Ctx)) {
    const auto *If = dyn_cast<IfStmt>(Around);
    if (If && If->getElse() &&
        !SM.isBeforeInTranslationUnit(S.getBeginLoc(),
                                      If->getElse()->getBeginLoc()) &&
        textOf(If->getCond()->getSourceRange(), Ctx) == Test)
      return true;
  }
  return false;
}
