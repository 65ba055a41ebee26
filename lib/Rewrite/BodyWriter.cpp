//===- BodyWriter.cpp - a new kernel body, line by line ------------------===//

#include "optiml/Rewrite/BodyWriter.h"
#include "optiml/Rewrite/Indentation.h"

#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

BodyWriter::BodyWriter(const CompoundStmt &Body, const ASTContext &Ctx)
    : Base(lineIndentOf(Body.getRBracLoc(), Ctx)), Step("  "), Out("{") {
  if (Body.body_empty())
    return;
  std::string First = lineIndentOf(Body.body_front()->getBeginLoc(), Ctx);
  // A leading pragma sits at column 1; the statement under it decides.
  if (const auto *A = dyn_cast<AttributedStmt>(Body.body_front()))
    First = lineIndentOf(A->getSubStmt()->getBeginLoc(), Ctx);
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
