//===- BodyWriter.cpp - a new kernel body, line by line ------------------===//

#include "BodyWriter.h"

#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

/// The blanks that start the line holding \p Loc.
static std::string indentOf(SourceLocation Loc, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  llvm::StringRef Buf = SM.getBufferData(File);
  size_t Start = Buf.rfind('\n', Offset);
  Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
  return Buf.substr(Start)
      .take_while([](char C) { return C == ' ' || C == '\t'; })
      .str();
}

BodyWriter::BodyWriter(const CompoundStmt &Body, const ASTContext &Ctx)
    : Base(indentOf(Body.getRBracLoc(), Ctx)), Step("  "), Out("{") {
  if (Body.body_empty())
    return;
  std::string First = indentOf(Body.body_front()->getBeginLoc(), Ctx);
  // A leading pragma sits at column 1; the statement under it decides.
  if (const auto *A = dyn_cast<AttributedStmt>(Body.body_front()))
    First = indentOf(A->getSubStmt()->getBeginLoc(), Ctx);
  if (First.size() > Base.size() && llvm::StringRef(First).starts_with(Base))
    Step = First.substr(Base.size());
}

void BodyWriter::line(unsigned Depth, llvm::StringRef Text) {
  Out += "\n";
  if (Text.empty())
    return;
  Out += Base;
  for (unsigned I = 0; I < Depth; ++I)
    Out += Step;
  Out += Text;
}

void BodyWriter::lines(unsigned Depth, llvm::ArrayRef<std::string> Texts) {
  for (const std::string &T : Texts)
    line(Depth, T);
}

void BodyWriter::appendToLast(llvm::StringRef Text) {
  if (!Text.empty())
    Out += " " + Text.str();
}

std::string BodyWriter::finish() { return Out + "\n" + Base + "}"; }
