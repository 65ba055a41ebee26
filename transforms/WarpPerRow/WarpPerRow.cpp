//===- WarpPerRow.cpp - a row's summing loop split across lanes -----------===//
//
// A thread per row that sums along its row reads addresses a row apart
// across a warp, so every load of the warp touches its own sector:
//
//   int row = blockIdx.x * blockDim.x + threadIdx.x;
//   if (row < m) {
//     float sum = 0.0f;
//     for (int j = 0; j < n; j++)
//       sum += A[row * n + j] * x[j];
//     y[row] = sum;
//   }
//
// With warp-per-row(lanes=32) a group of 32 lanes takes a row: the lanes
// stride the loop (consecutive lanes, consecutive addresses), butterfly
// shuffles add the partial sums so that every lane holds the row's sum, and
// lane 0 alone runs what the row does after the loop, except the loops
// that follow it in its block: further sums (a variance after a mean) and
// loops that write the row's elements, which the lanes stride too. With
// grid=keep the launch stays as it is: each group takes its lanes' rows one
// after the other, so no caller changes, but a kernel with few rows then
// has few warps in flight. With grid=spread the grid grows by the group's
// size, so that each group takes one row. WarpPerRowLegality decides where
// it may run.
//
//===----------------------------------------------------------------------===//

#include "optiml/Analysis/SourceText.h"
#include "optiml/Rewrite/GridRescale.h"
#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/SourceSnippet.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/TransformFactories.h"
#include "transforms/WarpPerRow/WarpPerRowLegality.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Format.h"

using namespace optiml;
using namespace clang;

/// How the rows meet the groups: the launch as it was, or a grid grown by
/// the group's size, with the launches to rewrite.
struct Spread {
  bool Grow = false;
  std::vector<LaunchShape> Launches;
};

static llvm::Expected<EditSet> emit(const FunctionDecl &Kernel,
                                    const WarpPerRowPlan &Plan, unsigned Lanes,
                                    const Spread &Grid, ASTContext &Ctx);

/// grid=spread where the launches allow it, else grid=keep.
static ParamValues defaults(const TransformDescriptor &, ParamValues V,
                            const Site &S, ASTContext &Ctx) {
  auto Lanes = unsigned(V.getInt("lanes"));
  auto Launches = WarpPerRowLegality::spreadLaunches(*S.Kernel, Lanes, Ctx);
  V.set("grid", Launches ? "spread" : "keep");
  if (!Launches)
    llvm::consumeError(Launches.takeError());
  return V;
}

/// Four lanes to a row where neighbouring threads already read neighbouring
/// elements (a thread per column): eight groups of a warp then read 32
/// bytes of each of four rows, where 32 lanes would each read their own
/// row's sector.
static ParamValues suggest(const TransformDescriptor &D, ParamValues V,
                           const Site &S, ASTContext &Ctx) {
  auto Plan = WarpPerRowLegality::check(*S.Kernel, *S.Loop, Ctx);
  if (!Plan) {
    llvm::consumeError(Plan.takeError());
    return V;
  }
  if (!WarpPerRowLegality::readsAcrossThreads(*S.Kernel, Plan->Loop, Ctx))
    return V;
  V.set("lanes", "4");
  return defaults(D, std::move(V), S, Ctx);
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  auto Plan = WarpPerRowLegality::check(*S.Kernel, *S.Loop, Ctx);
  if (!Plan)
    return Plan.takeError();
  auto Lanes = unsigned(P.getInt("lanes"));
  Spread Grid;
  Grid.Grow = P.get("grid") == "spread";
  if (Grid.Grow) {
    auto Launches = WarpPerRowLegality::spreadLaunches(*S.Kernel, Lanes, Ctx);
    if (!Launches)
      return Launches.takeError();
    Grid.Launches = std::move(*Launches);
  }
  return Rewrite([&K = *S.Kernel, Plan = std::move(*Plan), Lanes,
                  Grid = std::move(Grid), &Ctx] {
    return emit(K, Plan, Lanes, Grid, Ctx);
  });
}

/// The location of the last character of \p S (its `;` or `}`).
static llvm::Expected<SourceLocation> lastCharOf(const Stmt &S,
                                                 const ASTContext &Ctx) {
  auto End = SourceSnippet::endOffset(S, Ctx);
  if (!End)
    return End.takeError();
  const SourceManager &SM = Ctx.getSourceManager();
  return SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(*End - 1);
}

/// The text of the token at \p Loc.
static std::string tokenText(SourceLocation Loc, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  return Lexer::getSourceText(
             CharSourceRange::getTokenRange(SM.getExpansionLoc(Loc)), SM,
             Ctx.getLangOpts())
      .str();
}

/// \p Head and its statements, braced when there are several, each line
/// after the first indented from \p Ind.
static std::string block(const std::string &Head,
                         llvm::ArrayRef<std::string> Body,
                         const std::string &Ind) {
  bool One = Body.size() == 1;
  std::string Text = Head + (One ? "" : " {");
  for (const std::string &Line : Body)
    Text += "\n" + Ind + "  " + Line;
  return One ? Text : Text + "\n" + Ind + "}";
}

/// Where lane k starts: k steps past \p Lower.
static std::string laneStart(const Expr &Lower, bool Up,
                             const ASTContext &Ctx) {
  const Expr *E = Lower.IgnoreParenImpCasts();
  if (const auto *I = dyn_cast<IntegerLiteral>(E);
      I && I->getValue() == 0 && Up)
    return "optiml_lane";
  std::string Text = textOf(Lower.getSourceRange(), Ctx);
  if (!isa<IntegerLiteral, DeclRefExpr, ArraySubscriptExpr, CallExpr,
           MemberExpr, ParenExpr>(Lower.IgnoreImpCasts()))
    Text = "(" + Text + ")";
  return Text + (Up ? " + optiml_lane" : " - optiml_lane");
}

/// The lanes stride the loop. Its sums start at zero on every lane but the
/// first, above the loop (a maximum needs no start: every lane may begin
/// from the row's); below it, shuffles leave the row's result in every
/// lane. An element loop has no reductions.
static llvm::Error splitLoop(const CanonicalLoop &L, const Stmt &Whole,
                             llvm::ArrayRef<RowReduction> Reductions,
                             unsigned Lanes, SourceSnippet &Region,
                             ASTContext &Ctx) {
  std::string Ind = lineIndentOf(L.For->getBeginLoc(), Ctx);
  if (llvm::Error E = Region.replace(L.Lower->getSourceRange(),
                                     laneStart(*L.Lower, L.increasing(), Ctx)))
    return E;
  std::string Step = (L.increasing() ? " += " : " -= ") + std::to_string(Lanes);
  if (llvm::Error E = Region.replace(L.For->getInc()->getSourceRange(),
                                     L.IV->getName().str() + Step))
    return E;
  if (Reductions.empty())
    return llvm::Error::success();
  std::vector<std::string> Resets, Shuffles;
  for (const RowReduction &R : Reductions) {
    std::string N = R.Var->getName().str();
    std::string Other = "__shfl_xor_sync(optiml_mask, " + N +
                        ", optiml_offset, " + std::to_string(Lanes) + ")";
    if (R.isSum())
      Resets.push_back(N + " = 0;");
    Shuffles.push_back(R.isSum() ? N + " += " + Other + ";"
                                 : N + " = " + R.Combine + "(" + N + ", " +
                                       Other + ");");
  }
  // Above the loop's statement: a pragma must stay next to its loop.
  SourceLocation Above = Whole.getBeginLoc();
  if (!Resets.empty())
    if (llvm::Error E = Region.replace(
            SourceRange(Above), block("if (optiml_lane != 0)", Resets, Ind) +
                                    "\n" + Ind + tokenText(Above, Ctx)))
      return E;
  auto Last = lastCharOf(*L.For, Ctx);
  if (!Last)
    return Last.takeError();
  return Region.insertAfter(
      *Last, "\n" + Ind +
                 block("for (int optiml_offset = " + std::to_string(Lanes / 2) +
                           "; optiml_offset > 0; optiml_offset /= 2)",
                       Shuffles, Ind));
}

/// The row's own variable takes the group's row; returns go on to the next
/// row; what follows the loop runs in lane 0.
static llvm::Error editRegion(const WarpPerRowPlan &Plan, unsigned Lanes,
                              SourceSnippet &Region, ASTContext &Ctx) {
  std::string Type = Plan.Row->getType().getAsString(Ctx.getPrintingPolicy());
  if (llvm::Error E = Region.replace(Plan.Row->getInit()->getSourceRange(),
                                     "(" + Type + ")optiml_row"))
    return E;
  for (const ReturnStmt *R : Plan.Returns)
    if (llvm::Error E =
            Region.replace(SourceRange(R->getReturnLoc()), "continue"))
      return E;
  for (const WarpPerRowPlan::Guarded &G : Plan.LaneZero) {
    // A loop with a pragma: the pragma keeps a line of its own, in braces.
    bool Pragma = isa<AttributedStmt>(G.S);
    SourceLocation Begin = G.S->getBeginLoc();
    std::string Ind = lineIndentOf(Begin, Ctx);
    std::string Guard = Pragma     ? "if (optiml_lane == 0) {\n" + Ind
                        : G.Braced ? "{ if (optiml_lane == 0) "
                                   : "if (optiml_lane == 0) ";
    if (llvm::Error E =
            Region.replace(SourceRange(Begin), Guard + tokenText(Begin, Ctx)))
      return E;
    if (!G.Braced && !Pragma)
      continue;
    auto Last = lastCharOf(*G.S, Ctx);
    if (!Last)
      return Last.takeError();
    if (llvm::Error E = Region.insertAfter(
            *Last, Pragma ? "\n" + Ind + "}" + (G.Braced ? " }" : "") : " }"))
      return E;
  }
  for (const WarpPerRowPlan::Follower &F : Plan.Followers)
    if (llvm::Error E =
            splitLoop(F.Loop, *F.Whole, F.Reductions, Lanes, Region, Ctx))
      return E;
  return splitLoop(Plan.Loop, *Plan.Loop.For, Plan.Reductions, Lanes, Region,
                   Ctx);
}

/// The lanes of one group: all 32 of a warp, or L consecutive ones.
static std::string maskOf(unsigned Lanes) {
  if (Lanes == 32)
    return "0xffffffffu";
  std::string Bits;
  llvm::raw_string_ostream(Bits) << llvm::format_hex((1u << Lanes) - 1, 0);
  std::string L = std::to_string(Lanes);
  return Bits + "u << (threadIdx.x % 32 / " + L + " * " + L + ")";
}

/// The lines that replace the row's declaration: the group's lanes, and a
/// loop over the rows of the group's threads (one row a group when the grid
/// grew).
static std::vector<std::string> prologue(unsigned Lanes, bool Grow) {
  std::string L = std::to_string(Lanes);
  std::string Groups =
      "(unsigned long long)gridDim.x * (blockDim.x / " + L + ")";
  std::vector<std::string> Lines = {
      "// warp-per-row: a group of " + L +
          " lanes takes each row; the lanes stride the",
      "// row's loops and shuffles combine their results.",
      "const unsigned optiml_lane = threadIdx.x % " + L + ";",
      "const unsigned optiml_mask = " + maskOf(Lanes) + ";",
      "if (threadIdx.x >= blockDim.x - blockDim.x % " + L + ")",
      "  return; // Too few threads left in the block for a group.",
      "const unsigned long long optiml_rows ="};
  if (Grow)
    Lines.insert(Lines.begin() + 2,
                 "// The grid grew " + L + "-fold: a group per row.");
  Lines.push_back(Grow ? "    " + Groups + ";"
                       : "    (unsigned long long)gridDim.x * blockDim.x;");
  Lines.insert(Lines.end(),
               {"for (unsigned long long optiml_row =",
                "         (unsigned long long)blockIdx.x * (blockDim.x / " + L +
                    ") + threadIdx.x / " + L + ";",
                "     optiml_row < optiml_rows;",
                "     optiml_row += " + Groups + ") {"});
  return Lines;
}

static llvm::Expected<EditSet> emit(const FunctionDecl &Kernel,
                                    const WarpPerRowPlan &Plan, unsigned Lanes,
                                    const Spread &Grid, ASTContext &Ctx) {
  auto Last = lastCharOf(*Plan.Last, Ctx);
  if (!Last)
    return Last.takeError();
  auto Region =
      SourceSnippet::ofTokens(Plan.RowDecl->getBeginLoc(), *Last, Ctx);
  if (!Region)
    return Region.takeError();
  if (llvm::Error E = editRegion(Plan, Lanes, *Region, Ctx))
    return E;
  std::string Ind = lineIndentOf(Plan.RowDecl->getBeginLoc(), Ctx);
  std::string Text;
  for (const std::string &Line : prologue(Lanes, Grid.Grow))
    Text += (Text.empty() ? "" : "\n" + Ind) + Line;
  for (const std::string &Line : Region->lines())
    Text += "\n" + (Line.empty() || Line[0] == '#' ? "" : Ind + "  ") + Line;
  Text += "\n" + Ind + "}";
  const SourceManager &SM = Ctx.getSourceManager();
  auto Begin = SourceSnippet::offsetOf(Plan.RowDecl->getBeginLoc(), Ctx);
  if (!Begin)
    return Begin.takeError();
  auto End = SourceSnippet::endOffset(*Plan.Last, Ctx);
  if (!End)
    return End.takeError();
  EditSet Edits;
  if (llvm::Error E = Edits.addText(SM, *Begin, *End - *Begin, Text))
    return E;
  if (Grid.Grow)
    if (llvm::Error E =
            spreadGrids(Kernel, Grid.Launches, 0, Lanes, Edits, Ctx))
      return E;
  return Edits;
}

std::unique_ptr<Transform> optiml::createWarpPerRow(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan, defaults,
                                             suggest);
}
