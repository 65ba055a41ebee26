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
// size, so that each group takes one row. A group of more than 32 lanes
// (lanes=256) is a whole block: shuffles combine each warp's results, and
// the warps meet in shared memory between two barriers; every launch then
// gets that block and a block per row. WarpPerRowLegality decides where it
// may run.
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
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Format.h"

using namespace optiml;
using namespace clang;

/// How the rows meet the groups: the launch as it was, or a grid grown by
/// the group's size, with the launches to rewrite.
struct Spread {
  bool Grow = false;
  std::vector<LaunchShape> Launches;
};

/// The threads that take a row, and for a block group the shared array
/// where each warp leaves its part of each reduction.
struct Group {
  unsigned Lanes = WarpLanes;
  llvm::MapVector<const VarDecl *, std::string> Partials;

  bool isBlock() const { return isBlockGroup(Lanes); }
  unsigned warps() const { return Lanes / WarpLanes; }
  /// Lanes that one shuffle butterfly spans.
  unsigned shuffleWidth() const { return std::min(Lanes, WarpLanes); }
};

static llvm::Expected<EditSet> emit(const FunctionDecl &Kernel,
                                    const WarpPerRowPlan &Plan,
                                    const Group &Threads, const Spread &Grid,
                                    ASTContext &Ctx);

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

/// One shared array for each reduction of the row, in the order the row
/// computes them.
static void nameParts(const WarpPerRowPlan &Plan, Group &Threads) {
  auto Add = [&](llvm::ArrayRef<RowReduction> Reductions) {
    for (const RowReduction &R : Reductions)
      Threads.Partials.try_emplace(
          R.Var, "optiml_part" + std::to_string(Threads.Partials.size()));
  };
  Add(Plan.Reductions);
  for (const WarpPerRowPlan::Follower &F : Plan.Followers)
    Add(F.Reductions);
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  auto Plan = WarpPerRowLegality::check(*S.Kernel, *S.Loop, Ctx);
  if (!Plan)
    return Plan.takeError();
  auto Lanes = unsigned(P.getInt("lanes"));
  Spread Grid;
  Grid.Grow = P.get("grid") == "spread";
  if (!Grid.Grow)
    if (llvm::Error E = WarpPerRowLegality::keepLaunches(*S.Kernel, Lanes, Ctx))
      return E;
  if (Grid.Grow) {
    auto Launches = WarpPerRowLegality::spreadLaunches(*S.Kernel, Lanes, Ctx);
    if (!Launches)
      return Launches.takeError();
    Grid.Launches = std::move(*Launches);
  }
  Group Threads{Lanes, {}};
  if (Threads.isBlock())
    nameParts(*Plan, Threads);
  return Rewrite([&K = *S.Kernel, Plan = std::move(*Plan),
                  Threads = std::move(Threads), Grid = std::move(Grid),
                  &Ctx] { return emit(K, Plan, Threads, Grid, Ctx); });
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

/// A block group's warps meet after their butterflies: lane 0 of each
/// warp leaves its results in the shared arrays, and after a barrier every
/// thread combines them in the same order (the same bits everywhere). The
/// second barrier keeps the next reduction from writing an array that a
/// thread still reads.
static std::vector<std::string>
blockCombine(llvm::ArrayRef<RowReduction> Reductions, const Group &Threads,
             const std::string &Ind) {
  std::vector<std::string> Stores, Firsts, Adds;
  for (const RowReduction &R : Reductions) {
    std::string N = R.Var->getName().str();
    const std::string &Part = Threads.Partials.lookup(R.Var);
    Stores.push_back(Part + "[threadIdx.x / 32] = " + N + ";");
    Firsts.push_back(N + " = " + Part + "[0];");
    std::string Other = Part + "[optiml_warp]";
    Adds.push_back(R.isSum()
                       ? N + " += " + Other + ";"
                       : N + " = " + R.Combine + "(" + N + ", " + Other + ");");
  }
  std::vector<std::string> Lines = {
      block("if (threadIdx.x % 32 == 0)", Stores, Ind), "__syncthreads();"};
  Lines.insert(Lines.end(), Firsts.begin(), Firsts.end());
  Lines.push_back(block("for (int optiml_warp = 1; optiml_warp < " +
                            std::to_string(Threads.warps()) +
                            "; ++optiml_warp)",
                        Adds, Ind));
  Lines.push_back("__syncthreads();");
  return Lines;
}

/// The lanes stride the loop. Its sums start at zero on every lane but the
/// first, above the loop (a maximum needs no start: every lane may begin
/// from the row's); below it, shuffles leave the row's result in every
/// lane (of each warp, for a block group, whose warps then combine theirs).
/// An element loop has no reductions.
static llvm::Error splitLoop(const CanonicalLoop &L, const Stmt &Whole,
                             llvm::ArrayRef<RowReduction> Reductions,
                             const Group &Threads, SourceSnippet &Region,
                             ASTContext &Ctx) {
  std::string Ind = lineIndentOf(L.For->getBeginLoc(), Ctx);
  if (llvm::Error E = Region.replace(L.Lower->getSourceRange(),
                                     laneStart(*L.Lower, L.increasing(), Ctx)))
    return E;
  std::string Step =
      (L.increasing() ? " += " : " -= ") + std::to_string(Threads.Lanes);
  if (llvm::Error E = Region.replace(L.For->getInc()->getSourceRange(),
                                     L.IV->getName().str() + Step))
    return E;
  if (Reductions.empty())
    return llvm::Error::success();
  std::string Width = std::to_string(Threads.shuffleWidth());
  std::vector<std::string> Resets, Shuffles;
  for (const RowReduction &R : Reductions) {
    std::string N = R.Var->getName().str();
    std::string Other =
        "__shfl_xor_sync(optiml_mask, " + N + ", optiml_offset, " + Width + ")";
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
  std::string Below = "\n" + Ind +
                      block("for (int optiml_offset = " +
                                std::to_string(Threads.shuffleWidth() / 2) +
                                "; optiml_offset > 0; optiml_offset /= 2)",
                            Shuffles, Ind);
  if (Threads.isBlock())
    for (const std::string &Line : blockCombine(Reductions, Threads, Ind))
      Below += "\n" + Ind + Line;
  return Region.insertAfter(*Last, Below);
}

/// The row's own variable takes the group's row; returns go on to the next
/// row; what follows the loop runs in lane 0.
static llvm::Error editRegion(const WarpPerRowPlan &Plan, const Group &Threads,
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
            splitLoop(F.Loop, *F.Whole, F.Reductions, Threads, Region, Ctx))
      return E;
  return splitLoop(Plan.Loop, *Plan.Loop.For, Plan.Reductions, Threads, Region,
                   Ctx);
}

/// The lanes of one group: all 32 of a warp, or L consecutive ones.
static std::string maskOf(unsigned Lanes) {
  if (Lanes >= WarpLanes)
    return "0xffffffffu";
  std::string Bits;
  llvm::raw_string_ostream(Bits) << llvm::format_hex((1u << Lanes) - 1, 0);
  std::string L = std::to_string(Lanes);
  return Bits + "u << (threadIdx.x % 32 / " + L + " * " + L + ")";
}

/// The lines that replace the row's declaration for a block group: each
/// reduction's shared array, and a loop over the rows of the grid, a block
/// to each.
static std::vector<std::string> blockPrologue(const Group &Threads,
                                              ASTContext &Ctx) {
  std::string L = std::to_string(Threads.Lanes);
  std::vector<std::string> Lines = {
      "// warp-per-row: a block of " + L +
          " threads takes each row; they stride the row's",
      "// loops, and shuffles and shared memory combine their results.",
      "// The launch changed: a block of " + L + " threads per row."};
  for (const auto &[Var, Name] : Threads.Partials)
    Lines.push_back("__shared__ " +
                    Var->getType().getUnqualifiedType().getAsString(
                        Ctx.getPrintingPolicy()) +
                    " " + Name + "[" + std::to_string(Threads.warps()) + "];");
  Lines.insert(Lines.end(), {"const unsigned optiml_lane = threadIdx.x;",
                             "const unsigned optiml_mask = 0xffffffffu;",
                             "for (unsigned long long optiml_row = blockIdx.x; "
                             "optiml_row < gridDim.x;",
                             "     optiml_row += gridDim.x) {"});
  return Lines;
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
                                    const WarpPerRowPlan &Plan,
                                    const Group &Threads, const Spread &Grid,
                                    ASTContext &Ctx) {
  auto Last = lastCharOf(*Plan.Last, Ctx);
  if (!Last)
    return Last.takeError();
  auto Region =
      SourceSnippet::ofTokens(Plan.RowDecl->getBeginLoc(), *Last, Ctx);
  if (!Region)
    return Region.takeError();
  if (llvm::Error E = editRegion(Plan, Threads, *Region, Ctx))
    return E;
  std::string Ind = lineIndentOf(Plan.RowDecl->getBeginLoc(), Ctx);
  std::string Text;
  for (const std::string &Line : Threads.isBlock()
                                     ? blockPrologue(Threads, Ctx)
                                     : prologue(Threads.Lanes, Grid.Grow))
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
  if (Threads.isBlock()) {
    if (llvm::Error E = blockPerElement(Kernel, Grid.Launches,
                                        {Threads.Lanes, 1, 1}, Edits, Ctx))
      return E;
  } else if (Grid.Grow) {
    if (llvm::Error E =
            spreadGrids(Kernel, Grid.Launches, 0, Threads.Lanes, Edits, Ctx))
      return E;
  }
  return Edits;
}

std::unique_ptr<Transform> optiml::createWarpPerRow(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan, defaults,
                                             suggest);
}
