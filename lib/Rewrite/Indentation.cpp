//===- Indentation.cpp - lay out inserted lines ---------------------------===//

#include "optiml/Rewrite/Indentation.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;
using MatchResult = ast_matchers::MatchFinder::MatchResult;

namespace {

/// The line around a node's first character, split at it.
struct LineSplit {
  SourceLocation Begin;   ///< Where the node starts.
  unsigned SpaceBefore;   ///< Blanks right before it.
  llvm::StringRef Indent; ///< The line's leading blanks.
  bool OwnLine;           ///< Nothing but blanks before the node.
};

llvm::Expected<LineSplit> splitAt(const MatchResult &R, llvm::StringRef ID) {
  auto Node = R.Nodes.getMap().find(ID);
  if (Node == R.Nodes.getMap().end())
    return llvm::createStringError("node '" + ID + "' is not bound");
  const SourceManager &SM = *R.SourceManager;
  SourceLocation Begin =
      SM.getExpansionLoc(Node->second.getSourceRange().getBegin());
  auto [File, Offset] = SM.getDecomposedLoc(Begin);
  llvm::StringRef Buffer = SM.getBufferData(File);
  size_t LineStart = Buffer.rfind('\n', Offset);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  llvm::StringRef Before = Buffer.slice(LineStart, Offset);
  llvm::StringRef Indent =
      Before.take_while([](char C) { return C == ' ' || C == '\t'; });
  unsigned Space = Before.size() - Before.rtrim(" \t").size();
  return LineSplit{Begin, Space, Indent, Indent.size() == Before.size()};
}

} // namespace

ASTEdit optiml::insertLineAbove(std::string NodeID, std::string Line) {
  RangeSelector Where =
      [NodeID](const MatchResult &R) -> llvm::Expected<CharSourceRange> {
    auto S = splitAt(R, NodeID);
    if (!S)
      return S.takeError();
    SourceLocation From =
        S->OwnLine ? S->Begin : S->Begin.getLocWithOffset(-int(S->SpaceBefore));
    return CharSourceRange::getCharRange(From, S->Begin);
  };
  MatchConsumer<std::string> Text =
      [NodeID, Line](const MatchResult &R) -> llvm::Expected<std::string> {
    auto S = splitAt(R, NodeID);
    if (!S)
      return S.takeError();
    if (S->OwnLine)
      return Line + "\n" + S->Indent.str();
    std::string Indent = S->Indent.str() + "  ";
    return "\n" + Indent + Line + "\n" + Indent;
  };
  return changeTo(std::move(Where), cat(run(std::move(Text))));
}

unsigned optiml::offsetOf(SourceLocation Loc, const SourceManager &SM) {
  return SM.getFileOffset(SM.getExpansionLoc(Loc));
}

unsigned optiml::lineStartOf(llvm::StringRef Buffer, unsigned Offset,
                             llvm::StringRef &Indent) {
  size_t Start = Buffer.rfind('\n', Offset);
  Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
  Indent = Buffer.slice(Start, Offset).take_while([](char C) {
    return C == ' ' || C == '\t';
  });
  return Start;
}

std::string optiml::lineIndentOf(SourceLocation Loc, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto [File, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
  llvm::StringRef Buf = SM.getBufferData(File);
  size_t Start = Buf.rfind('\n', Offset);
  Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
  return Buf.substr(Start)
      .take_while([](char C) { return C == ' ' || C == '\t'; })
      .str();
}
