//===- SourceSnippet.cpp - a statement's text, edited inside -------------===//

#include "optiml/Rewrite/SourceSnippet.h"

#include "llvm/ADT/StringExtras.h"
#include "optiml/Support/Error.h"

#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace optiml;
using namespace clang;

static llvm::Error inMacro() {
  return makeError(ErrorKind::NotApplicable,
                   "the code to copy is written with a macro");
}

llvm::Expected<unsigned> SourceSnippet::offsetOf(SourceLocation Loc,
                                                 const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (Loc.isMacroID()) {
    if (!SM.isMacroArgExpansion(Loc))
      return inMacro();
    Loc = SM.getSpellingLoc(Loc);
  }
  if (!Loc.isValid() || !SM.isWrittenInMainFile(Loc))
    return inMacro();
  return SM.getFileOffset(Loc);
}

/// Where the last token of a range ending at \p Loc is written in the
/// file: inside a macro expansion (`... + PIX(x + 1, y)`) that is the
/// expansion's last token (its `)`), not the macro's name.
static SourceLocation lastFileToken(SourceLocation Loc,
                                    const SourceManager &SM) {
  return Loc.isMacroID() ? SM.getExpansionRange(Loc).getEnd() : Loc;
}

/// The offset just past the token at \p Loc.
static llvm::Expected<unsigned> tokenEnd(SourceLocation Loc,
                                         const ASTContext &Ctx) {
  auto Offset = SourceSnippet::offsetOf(Loc, Ctx);
  if (!Offset)
    return Offset.takeError();
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Spelled = Loc.isMacroID() ? SM.getSpellingLoc(Loc) : Loc;
  return *Offset + Lexer::MeasureTokenLength(Spelled, SM, Ctx.getLangOpts());
}

llvm::Expected<unsigned> SourceSnippet::endOffset(const Stmt &S,
                                                  const ASTContext &Ctx) {
  if (const auto *A = dyn_cast<AttributedStmt>(&S))
    return endOffset(*A->getSubStmt(), Ctx);
  if (const auto *C = dyn_cast<CompoundStmt>(&S))
    return tokenEnd(C->getRBracLoc(), Ctx);
  if (const auto *If = dyn_cast<IfStmt>(&S))
    return endOffset(If->getElse() ? *If->getElse() : *If->getThen(), Ctx);
  if (const auto *F = dyn_cast<ForStmt>(&S))
    return endOffset(*F->getBody(), Ctx);
  if (const auto *F = dyn_cast<CXXForRangeStmt>(&S))
    return endOffset(*F->getBody(), Ctx);
  if (const auto *W = dyn_cast<WhileStmt>(&S))
    return endOffset(*W->getBody(), Ctx);
  if (const auto *Sw = dyn_cast<SwitchStmt>(&S))
    return endOffset(*Sw->getBody(), Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  auto End = tokenEnd(lastFileToken(S.getEndLoc(), SM), Ctx);
  if (!End || isa<DeclStmt, NullStmt>(S))
    return End; // Their range ends with the ';' already.
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  unsigned I = *End;
  while (I < Buf.size() && (Buf[I] == ' ' || Buf[I] == '\t'))
    ++I;
  return I < Buf.size() && Buf[I] == ';' ? I + 1 : *End;
}

/// Blanks before the first character of the line holding \p Offset.
static unsigned indentAt(llvm::StringRef Buf, unsigned Offset) {
  size_t LineStart = Buf.rfind('\n', Offset);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  unsigned N = 0;
  while (LineStart + N < Buf.size() &&
         (Buf[LineStart + N] == ' ' || Buf[LineStart + N] == '\t'))
    ++N;
  return N;
}

llvm::Expected<SourceSnippet> SourceSnippet::ofTokens(SourceLocation B,
                                                      SourceLocation Last,
                                                      const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto From = offsetOf(SM.getExpansionLoc(B), Ctx);
  if (!From)
    return From.takeError();
  auto To = tokenEnd(lastFileToken(Last, SM), Ctx);
  if (!To)
    return To.takeError();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  if (*To < *From)
    return makeError(ErrorKind::Internal, "an empty snippet");
  // A loop pragma may come first; the first line of code sets the indent.
  unsigned Code = *From;
  while (Buf.substr(Code).starts_with("#") && Buf.find('\n', Code) < *To) {
    Code = Buf.find('\n', Code) + 1;
    while (Code < *To && (Buf[Code] == ' ' || Buf[Code] == '\t'))
      ++Code;
  }
  return SourceSnippet(Ctx, *From, Buf.slice(*From, *To).str(),
                       indentAt(Buf, Code));
}

llvm::Expected<SourceSnippet> SourceSnippet::ofStmt(const Stmt &S,
                                                    const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto From = offsetOf(SM.getExpansionLoc(S.getBeginLoc()), Ctx);
  if (!From)
    return From.takeError();
  auto To = endOffset(S, Ctx);
  if (!To)
    return To.takeError();
  // A loop pragma starts the statement; the loop's line sets the indent.
  const Stmt *Inner = &S;
  if (const auto *A = dyn_cast<AttributedStmt>(&S))
    Inner = A->getSubStmt();
  auto InnerFrom = offsetOf(SM.getExpansionLoc(Inner->getBeginLoc()), Ctx);
  if (!InnerFrom)
    return InnerFrom.takeError();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  return SourceSnippet(Ctx, *From, Buf.slice(*From, *To).str(),
                       indentAt(Buf, *InnerFrom));
}

llvm::Error SourceSnippet::edit(unsigned Offset, unsigned Length,
                                std::string Text) {
  if (Offset < Begin || Offset + Length > Begin + Raw.size())
    return makeError(ErrorKind::Internal, "an edit outside the snippet");
  unsigned At = Offset - Begin;
  auto Next = Edits.lower_bound(At);
  bool Overlaps =
      (Next != Edits.end() && Next->first < At + std::max(Length, 1u)) ||
      (Next != Edits.begin() &&
       std::prev(Next)->first + std::prev(Next)->second.first > At);
  if (Overlaps)
    return makeError(ErrorKind::Internal, "overlapping snippet edits");
  Edits[At] = {Length, std::move(Text)};
  return llvm::Error::success();
}

llvm::Error SourceSnippet::replace(SourceRange Range, std::string Text) {
  auto From = offsetOf(Range.getBegin(), *Ctx);
  if (!From)
    return From.takeError();
  auto To = tokenEnd(Range.getEnd(), *Ctx);
  if (!To)
    return To.takeError();
  return edit(*From, *To - *From, std::move(Text));
}

llvm::Error SourceSnippet::insertAfter(SourceLocation Loc, std::string Text) {
  auto At = tokenEnd(Loc, *Ctx);
  if (!At)
    return At.takeError();
  return edit(*At, 0, std::move(Text));
}

std::string SourceSnippet::text() const {
  std::string Out;
  unsigned Pos = 0;
  for (const auto &[At, Edit] : Edits) {
    Out += Raw.substr(Pos, At - Pos);
    Out += Edit.second;
    Pos = At + Edit.first;
  }
  Out += Raw.substr(Pos);
  return Out;
}

std::vector<std::string> SourceSnippet::lines() const {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  std::string Text = text();
  llvm::StringRef(Text).split(Parts, '\n');
  std::vector<std::string> Out;
  for (size_t I = 0; I < Parts.size(); ++I) {
    llvm::StringRef L = Parts[I].rtrim(" \t\r");
    if (I > 0 && L.ltrim().starts_with("#"))
      L = L.ltrim();
    else if (I > 0)
      L = L.drop_front(
          std::min<size_t>(Indent, L.size() - L.ltrim(" \t").size()));
    Out.push_back(L.str());
  }
  return Out;
}

std::string SourceSnippet::oneLine() const {
  std::vector<std::string> Parts;
  for (const std::string &Line : lines())
    Parts.push_back(llvm::StringRef(Line).trim().str());
  return llvm::join(Parts, " ");
}
