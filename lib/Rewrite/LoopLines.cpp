//===- LoopLines.cpp - lines of code written in place of a loop ----------===//

#include "optiml/Rewrite/LoopLines.h"
#include "optiml/Rewrite/Indentation.h"

#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

/// The statement whose line shows how deep the body is indented.
static const Stmt *firstBodyStmt(const Stmt *Body) {
  if (const auto *C = dyn_cast<CompoundStmt>(Body))
    Body = C->body_empty() ? nullptr : C->body_front();
  // A leading pragma sits at column 1; the statement under it decides.
  if (const auto *A = dyn_cast_or_null<AttributedStmt>(Body))
    Body = A->getSubStmt();
  return Body;
}

LoopLines::LoopLines(const ForStmt &For, const ASTContext &Ctx)
    : Base(lineIndentOf(For.getBeginLoc(), Ctx)), Step("  ") {
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *First = firstBodyStmt(For.getBody());
  if (!First || SM.getExpansionLineNumber(First->getBeginLoc()) ==
                    SM.getExpansionLineNumber(For.getBeginLoc()))
    return;
  std::string Inner = lineIndentOf(First->getBeginLoc(), Ctx);
  if (Inner.size() > Base.size() && llvm::StringRef(Inner).starts_with(Base))
    Step = Inner.substr(Base.size());
}

void LoopLines::line(unsigned Depth, llvm::StringRef Text) {
  std::string Indented;
  if (!Text.empty())
    for (unsigned I = 0; I < Depth; ++I)
      Indented += Step;
  Out.push_back(Indented + Text.str());
}

void LoopLines::lines(unsigned Depth, llvm::ArrayRef<std::string> Texts) {
  for (size_t I = 0; I < Texts.size(); ++I) {
    llvm::StringRef Text = Texts[I];
    // SourceSnippet puts preprocessor lines at column 1; a pragma takes the
    // indentation of the statement it stands above.
    std::string Indent;
    if (Text.starts_with("#"))
      for (llvm::StringRef Next : Texts.drop_front(I + 1))
        if (!Next.starts_with("#")) {
          Indent =
              Next.take_while([](char C) { return C == ' ' || C == '\t'; });
          break;
        }
    line(Depth, Indent + Text.str());
  }
}

void LoopLines::wrapInBlock() {
  std::vector<std::string> Inner = std::move(Out);
  Out.clear();
  line(0, "{");
  lines(1, Inner);
  line(0, "}");
}

std::string LoopLines::text() const {
  if (Out.empty())
    return "";
  std::string Text = Out.front();
  for (size_t I = 1; I < Out.size(); ++I)
    Text += "\n" + (Out[I].empty() ? "" : Base + Out[I]);
  return Text;
}
