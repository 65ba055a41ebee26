//===- StmtSurround.cpp - lines around one statement ---------------------===//

#include "optiml/Rewrite/StmtSurround.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Rewrite/Indentation.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

bool optiml::isInBlock(const Stmt &S, ASTContext &Ctx) {
  DynTypedNode Parent = parentOf(DynTypedNode::create(S), Ctx);
  if (const auto *A = Parent.get<AttributedStmt>())
    Parent = parentOf(DynTypedNode::create(*A), Ctx);
  return Parent.get<CompoundStmt>() != nullptr;
}

namespace {

/// Where the inserted text goes: the start of the statement (or of the
/// line of its pragma), its end, and how it is laid out.
struct Anchor {
  unsigned Begin = 0, End = 0;
  std::string Indent;
  bool OwnLine = false;
};

llvm::Expected<Anchor> anchorOf(const Stmt &S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  Anchor A;
  llvm::StringRef Indent;
  unsigned Offset = offsetOf(S.getBeginLoc(), SM);
  unsigned Line = lineStartOf(Buffer, Offset, Indent);
  A.Indent = Indent.str();
  A.Begin = Offset;
  A.OwnLine = Buffer.slice(Line, Offset).trim().empty();
  const Stmt *Whole = &S;
  // A loop pragma must stay right above its loop: go above the pragma.
  if (const auto *Attr =
          parentOf(DynTypedNode::create(S), Ctx).get<AttributedStmt>()) {
    Whole = Attr;
    llvm::StringRef PragmaIndent;
    A.Begin =
        lineStartOf(Buffer, offsetOf(Attr->getBeginLoc(), SM), PragmaIndent);
    if (!Buffer.substr(A.Begin).ltrim(" \t").starts_with("#"))
      return notApplicableAt(Attr->getBeginLoc(), Ctx,
                             "the loop's pragma is not on a line of its own");
    A.OwnLine = true;
  } else if (A.OwnLine) {
    A.Begin = Line;
  }
  SourceLocation EndLoc = Lexer::getLocForEndOfToken(
      SM.getExpansionLoc(Whole->getEndLoc()), 0, SM, Ctx.getLangOpts());
  // A statement ending in an expression ends at its `;`.
  if (!isa<CompoundStmt, ForStmt, WhileStmt, IfStmt, AttributedStmt>(Whole) ||
      (isa<ForStmt, WhileStmt>(Whole) &&
       !isa<CompoundStmt>(isa<ForStmt>(Whole)
                              ? cast<ForStmt>(Whole)->getBody()
                              : cast<WhileStmt>(Whole)->getBody())))
    if (std::optional<Token> Semi =
            Lexer::findNextToken(Whole->getEndLoc(), SM, Ctx.getLangOpts());
        Semi && Semi->is(tok::semi))
      EndLoc = Semi->getEndLoc();
  A.End = offsetOf(EndLoc, SM);
  return A;
}

} // namespace

/// Moves the lines after the first of [Begin, End) in by two blanks, as
/// the statement now sits in a new block.
static llvm::Error indentLines(unsigned Begin, unsigned End, EditSet &Edits,
                               const SourceManager &SM) {
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  for (size_t At = Buffer.find('\n', Begin); At < End;
       At = Buffer.find('\n', At + 1))
    if (llvm::Error E = Edits.addText(SM, At + 1, 0, "  "))
      return E;
  return llvm::Error::success();
}

llvm::Error optiml::surroundStmt(const Stmt &S,
                                 llvm::ArrayRef<std::string> Before,
                                 llvm::ArrayRef<std::string> After,
                                 llvm::StringRef Guard, EditSet &Edits,
                                 ASTContext &Ctx) {
  auto A = anchorOf(S, Ctx);
  if (!A)
    return A.takeError();
  bool Braces = !isInBlock(S, Ctx) || !Guard.empty();
  std::string Head, Tail;
  if (!Guard.empty() && A->OwnLine) {
    // if (G) {
    //   before...
    //   S
    //   after...
    // }
    std::string Inner = A->Indent + "  ";
    Head = A->Indent + "if (" + Guard.str() + ") {\n";
    for (const std::string &L : Before)
      Head += Inner + L + "\n";
    Head += "  "; // S's first line moves in with the block.
    for (const std::string &L : After)
      Tail += "\n" + Inner + L;
    Tail += "\n" + A->Indent + "}";
  } else if (A->OwnLine && !Braces) {
    for (const std::string &L : Before)
      Head += A->Indent + L + "\n";
    for (const std::string &L : After)
      Tail += "\n" + A->Indent + L;
  } else {
    // One line, or compact braces around a statement that was alone:
    // `{ before... S after... }`.
    std::string Open = Guard.empty() ? "{ " : "if (" + Guard.str() + ") { ";
    Head = (Braces ? (A->OwnLine ? A->Indent : "") + Open : "") +
           llvm::join(Before, " ");
    Head += A->OwnLine && Braces ? "\n" : Before.empty() ? "" : " ";
    Tail = (After.empty() ? "" : " " + llvm::join(After, " ")) +
           (Braces ? " }" : "");
  }
  const SourceManager &SM = Ctx.getSourceManager();
  if (llvm::Error E = Edits.addText(SM, A->Begin, 0, Head))
    return E;
  if (!Guard.empty() && A->OwnLine)
    if (llvm::Error E = indentLines(A->Begin, A->End, Edits, SM))
      return E;
  return Edits.addText(SM, A->End, 0, Tail);
}
