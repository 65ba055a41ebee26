//===- Fusion.cpp - merge a loop with the loop after it ------------------===//
//
// Loop fusion of a loop with the next loop in its block, over the same
// iterations:
//
//   for (int i = 0; i < n; ++i)          float sq = 0.0f;
//     s += x[i];                   =>    for (int i = 0; i < n; ++i) {
//   float sq = 0.0f;                       s += x[i];
//   for (int j = 0; j < n; ++j)            sq += x[j] * x[j];  (j renamed i)
//     sq += x[j] * x[j];                 }
//
// One pass instead of two: what both bodies load is loaded once (x[i]
// above), the loop overhead is paid once, and the two bodies' independent
// work overlaps. Statements between the loops (FusionLegality proves them
// independent of the first loop) now run before it. The fused loop takes
// the second loop's place, with the first loop's header; the first body
// comes first in it, in a block of its own when one of its declarations
// would shadow a name the second body uses.
//
//===----------------------------------------------------------------------===//

#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/SourceSnippet.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/Fusion/FusionLegality.h"
#include "transforms/TransformFactories.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

/// The edits for a plan FusionLegality accepted.
static llvm::Expected<EditSet>
emit(const FusionPlan &Plan, const std::string &KernelName, ASTContext &Ctx);

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                                    ASTContext &Ctx) {
  return Rewrite::of(FusionLegality::check(S, Ctx),
                     [Name = S.kernelName(), &Ctx](const auto &Plan) {
                       return emit(Plan, Name, Ctx);
                     });
}

/// A selector for the main-file characters [From, To).
static RangeSelector between(unsigned From, unsigned To,
                             const SourceManager &SM) {
  SourceLocation Start = SM.getLocForStartOfFile(SM.getMainFileID());
  CharSourceRange R = CharSourceRange::getCharRange(
      Start.getLocWithOffset(From), Start.getLocWithOffset(To));
  return [R](const ast_matchers::MatchFinder::MatchResult &)
             -> llvm::Expected<CharSourceRange> { return R; };
}

/// One level of indentation, as the loops' bodies use it.
static std::string stepOf(const ForStmt &For, llvm::StringRef Base,
                          const ASTContext &Ctx) {
  const Stmt *First = For.getBody();
  if (const auto *C = dyn_cast<CompoundStmt>(First))
    First = C->body_empty() ? nullptr : C->body_front();
  const SourceManager &SM = Ctx.getSourceManager();
  if (!First || SM.getExpansionLineNumber(First->getBeginLoc()) ==
                    SM.getExpansionLineNumber(For.getBeginLoc()))
    return "  ";
  std::string Inner = lineIndentOf(First->getBeginLoc(), Ctx);
  if (Inner.size() > Base.size() && llvm::StringRef(Inner).starts_with(Base))
    return Inner.substr(Base.size());
  return "  ";
}

/// \p Body's lines, continuation lines without the loop's indentation
/// \p Base (a preprocessor line without any), trailing blanks dropped.
static llvm::Expected<std::vector<std::string>>
rawLines(const Stmt &Body, llvm::StringRef Base, const ASTContext &Ctx) {
  auto Snip = SourceSnippet::ofStmt(Body, Ctx);
  if (!Snip)
    return Snip.takeError();
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  std::string Text = Snip->text();
  llvm::StringRef(Text).split(Parts, '\n');
  std::vector<std::string> Out;
  for (size_t I = 0; I < Parts.size(); ++I) {
    llvm::StringRef L = Parts[I].rtrim(" \t\r");
    size_t Blanks = L.size() - L.ltrim(" \t").size();
    if (I > 0)
      L = L.ltrim().starts_with("#")
              ? L.ltrim()
              : L.drop_front(std::min(Blanks, Base.size()));
    Out.push_back(L.str());
  }
  return Out;
}

/// The statements of \p Body, a loop's body indented by \p Base, each line
/// one \p Step in from \p Base (a block's braces dropped, a comment after
/// its `{` kept).
static llvm::Expected<std::vector<std::string>>
bodyLines(const Stmt &Body, llvm::StringRef Base, const std::string &Step,
          const ASTContext &Ctx) {
  auto Lines = rawLines(Body, Base, Ctx);
  if (!Lines)
    return Lines.takeError();
  std::vector<std::string> Out;
  auto Indented = [&](llvm::StringRef L) {
    return L.empty() ? std::string() : Step + L.trim().str();
  };
  if (!isa<CompoundStmt>(Body)) {
    Out = std::move(*Lines);
    Out.front() = Indented(Out.front());
    return Out;
  }
  if (Lines->size() == 1) { // `{ a; b; }`
    llvm::StringRef Inner =
        llvm::StringRef(Lines->front()).drop_front().drop_back().trim();
    if (!Inner.empty())
      Out.push_back(Indented(Inner));
    return Out;
  }
  llvm::StringRef Tail = llvm::StringRef(Lines->front()).drop_front().trim();
  if (!Tail.empty())
    Out.push_back(Indented(Tail));
  Out.insert(Out.end(), Lines->begin() + 1, Lines->end() - 1);
  llvm::StringRef Close = llvm::StringRef(Lines->back()).drop_back().rtrim();
  if (!Close.trim().empty())
    Out.push_back(Close.str());
  return Out;
}

/// Removes the first loop, with its lines when it has them to itself.
static llvm::Error removeFirst(const ForStmt &For, EditSet &Edits,
                               ASTContext &Ctx) {
  auto Begin = SourceSnippet::offsetOf(For.getBeginLoc(), Ctx);
  if (!Begin)
    return Begin.takeError();
  auto End = SourceSnippet::endOffset(For, Ctx);
  if (!End)
    return End.takeError();
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  llvm::StringRef Indent;
  unsigned From = *Begin, To = *End;
  unsigned LineStart = lineStartOf(Buffer, From, Indent);
  size_t LineEnd = std::min(Buffer.find('\n', To), Buffer.size());
  if (Buffer.slice(LineStart, From).trim().empty() &&
      Buffer.slice(To, LineEnd).trim().empty()) {
    From = LineStart;
    To = std::min<size_t>(LineEnd + 1, Buffer.size());
  }
  return Edits.add(For, changeTo(between(From, To, SM), cat("")), Ctx);
}

static llvm::Expected<EditSet>
emit(const FusionPlan &Plan, const std::string &KernelName, ASTContext &Ctx) {
  const ForStmt &First = *Plan.First.For, &Second = *Plan.Second.For;
  std::string Base = lineIndentOf(Second.getBeginLoc(), Ctx);
  std::string Step = stepOf(Second, Base, Ctx);
  auto Header =
      SourceSnippet::ofTokens(First.getBeginLoc(), First.getRParenLoc(), Ctx);
  if (!Header)
    return Header.takeError();
  auto Lines = bodyLines(*First.getBody(),
                         lineIndentOf(First.getBeginLoc(), Ctx), Step, Ctx);
  if (!Lines)
    return Lines.takeError();
  if (Plan.WrapFirstBody) {
    for (std::string &L : *Lines)
      L = L.empty() ? L : Step + L;
    Lines->insert(Lines->begin(), Step + "{");
    Lines->push_back(Step + "}");
  }
  std::string Text = Header->text() + " {";
  for (const std::string &L : *Lines)
    Text += "\n" + (L.empty() ? "" : Base + L);
  // The second loop's header becomes the first's, followed by the first
  // body; a body that was a single statement gets braces.
  const Stmt &Body2 = *Second.getBody();
  const auto *Block = dyn_cast<CompoundStmt>(&Body2);
  auto From = SourceSnippet::offsetOf(Second.getBeginLoc(), Ctx);
  if (!From)
    return From.takeError();
  auto To = SourceSnippet::offsetOf(
      Block ? Block->getLBracLoc().getLocWithOffset(1) : Body2.getBeginLoc(),
      Ctx);
  if (!To)
    return To.takeError();
  auto End = SourceSnippet::endOffset(Body2, Ctx);
  if (!End)
    return End.takeError();
  const SourceManager &SM = Ctx.getSourceManager();
  EditSet Edits;
  if (llvm::Error E = removeFirst(First, Edits, Ctx))
    return E;
  if (!Block)
    Text += "\n" + Base + Step;
  if (llvm::Error E =
          Edits.add(Second, changeTo(between(*From, *To, SM), cat(Text)), Ctx))
    return E;
  if (!Block)
    if (llvm::Error E = Edits.add(
            Second, changeTo(between(*End, *End, SM), cat("\n" + Base + "}")),
            Ctx))
      return E;
  for (const DeclRefExpr *Ref : Plan.Renamed)
    if (llvm::Error E = Edits.add(
            *Ref,
            changeTo(node(EditSet::Root.str()), cat(Plan.First.IV->getName())),
            Ctx))
      return E;
  if (Plan.RestsOnSpec)
    Edits.addNote("'" + KernelName +
                  "' is not launched in this file: fusion relies on the "
                  "kernel spec's buffers being distinct");
  return Edits;
}

std::unique_ptr<Transform> optiml::createFusion(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
