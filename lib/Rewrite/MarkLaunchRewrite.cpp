//===- MarkLaunchRewrite.cpp - keep the spec's launch in step ------------===//

#include "optiml/Rewrite/MarkLaunchRewrite.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/ThreadGeometry.h"
#include "optiml/Support/Error.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace optiml;
using namespace clang;

namespace {

/// A clause's argument list inside the mark: [Begin, End) offsets of the
/// text between its parentheses, and the top-level arguments.
struct Clause {
  unsigned Begin = 0, End = 0;
  std::vector<std::string> Args;
};

/// The offset just past the mark's logical line (backslash-newlines joined).
unsigned directiveEnd(llvm::StringRef Buf, unsigned From) {
  unsigned I = From;
  while (I < Buf.size() && Buf[I] != '\n')
    ++I;
  while (I > From && I < Buf.size() &&
         llvm::StringRef(Buf.data() + From, I - From)
             .rtrim(" \t\r")
             .ends_with("\\")) {
    ++I;
    while (I < Buf.size() && Buf[I] != '\n')
      ++I;
  }
  return I;
}

std::optional<Clause> findClause(llvm::StringRef Buf, unsigned From,
                                 unsigned To, llvm::StringRef Name) {
  llvm::StringRef Text = Buf.slice(From, To);
  for (size_t At = Text.find(Name); At != llvm::StringRef::npos;
       At = Text.find(Name, At + 1)) {
    bool WordStart =
        At == 0 || !(llvm::isAlnum(Text[At - 1]) || Text[At - 1] == '_');
    size_t Open = At + Name.size();
    while (Open < Text.size() && (Text[Open] == ' ' || Text[Open] == '\t'))
      ++Open;
    if (!WordStart || Open >= Text.size() || Text[Open] != '(')
      continue;
    Clause C;
    C.Begin = From + Open + 1;
    int Depth = 0;
    size_t ArgStart = Open + 1;
    for (size_t I = Open; I < Text.size(); ++I) {
      char Ch = Text[I];
      if (Ch == '(' && ++Depth)
        continue;
      if ((Ch == ',' && Depth == 1) || (Ch == ')' && Depth == 1)) {
        C.Args.push_back(Text.slice(ArgStart, I).trim(" \t\\\r\n").str());
        ArgStart = I + 1;
      }
      if (Ch == ')' && --Depth == 0) {
        C.End = From + I;
        return C;
      }
    }
    return std::nullopt;
  }
  return std::nullopt;
}

/// `(N + B - 1) / B` or `ceil_div(N, B)` for block \p Old, rescaled to
/// \p New; nothing when the text is neither.
std::optional<std::string> rescaleCeilDiv(llvm::StringRef Text, uint64_t Old,
                                          uint64_t New) {
  llvm::SmallVector<llvm::StringRef, 4> M;
  llvm::Regex Arith("^\\((.+)\\+ *([0-9]+) *\\) */ *([0-9]+)$");
  std::optional<std::string> Count;
  if (Arith.match(Text, &M) && M[2] == std::to_string(Old - 1) &&
      M[3] == std::to_string(Old))
    Count = M[1].trim().str();
  llvm::Regex Call("^ceil_div *\\((.+), *([0-9]+) *\\)$");
  bool IsCall = !Count && Call.match(Text, &M) && M[2] == std::to_string(Old);
  if (IsCall)
    Count = M[1].trim().str();
  if (!Count || New == 1)
    return Count; // A block per element: N blocks.
  if (IsCall)
    return "ceil_div(" + *Count + ", " + std::to_string(New) + ")";
  return "(" + *Count + " + " + std::to_string(New - 1) + ") / " +
         std::to_string(New);
}

llvm::Error notApplicable(const llvm::Twine &Why) {
  return makeError(ErrorKind::NotApplicable,
                   "the kernel's #pragma optiml mark: " + Why +
                       "; update its block(...) and grid(...) by hand");
}

} // namespace

namespace {

/// The launch clauses of a kernel's mark and the block they give.
struct MarkLaunch {
  Clause Block, Grid;
  Dim3 Old = {1, 1, 1};
};

/// \p Kernel's mark's block(...) and grid(...); nothing without a mark.
llvm::Expected<std::optional<MarkLaunch>>
findMarkLaunch(const FunctionDecl &Kernel, ASTContext &Ctx) {
  std::optional<KernelMark> Mark = KernelFinder::markOf(Kernel, Ctx);
  if (!Mark)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  SourceLocation Line =
      SM.translateLineCol(SM.getMainFileID(), Mark->Pos.Line, Mark->Pos.Column);
  unsigned From = SM.getFileOffset(Line);
  unsigned To = directiveEnd(Buf, From);

  auto Block = findClause(Buf, From, To, "block");
  auto Grid = findClause(Buf, From, To, "grid");
  if (!Block || !Grid)
    return notApplicable("no block(...) or grid(...) clause");
  MarkLaunch M{*Block, *Grid};
  for (size_t D = 0; D < Block->Args.size() && D < 3; ++D)
    if (!llvm::to_integer(Block->Args[D], M.Old[D], 10))
      return notApplicable("block(...) is not made of integer literals");
  return M;
}

/// How a grid dimension that is not a ceil-div by the block may change.
enum class OtherGrid { Refuse, RoundUp, Keep };

/// Grid dimension \p D of \p Args (missing ones are 1), for block \p Old,
/// made one for \p New.
llvm::Error rescaleGridArg(std::vector<std::string> &Args, unsigned D,
                           uint64_t Old, uint64_t New, OtherGrid Other) {
  while (Args.size() <= D)
    Args.push_back("1");
  if (auto Scaled = rescaleCeilDiv(Args[D], Old, New)) {
    Args[D] = *Scaled;
    return llvm::Error::success();
  }
  if (Other == OtherGrid::Keep)
    return llvm::Error::success();
  if (Other == OtherGrid::Refuse)
    return notApplicable("grid dimension '" + Args[D] +
                         "' is not a ceil-div by the block, and the kernel "
                         "does not guard its indices");
  Args[D] = New == 1 ? "(" + Args[D] + ") * " + std::to_string(Old)
                     : "ceil_div((" + Args[D] + ") * " + std::to_string(Old) +
                           ", " + std::to_string(New) + ")";
  return llvm::Error::success();
}

/// \p Args without the trailing 1s rescaleGridArg added past the
/// clause's own \p Written dimensions.
std::string dimsText(std::vector<std::string> Args, size_t Written) {
  while (Args.size() > std::max<size_t>(Written, 1) && Args.back() == "1")
    Args.pop_back();
  return llvm::join(Args, ", ");
}

/// The block clause's new arguments: as many dimensions as it had, more
/// when \p New needs them.
std::string blockText(const Clause &Block, const Dim3 &New) {
  size_t Dims = std::max<size_t>(Block.Args.size(), New[2] != 1   ? 3
                                                    : New[1] != 1 ? 2
                                                                  : 1);
  std::vector<std::string> Args;
  for (size_t D = 0; D < Dims; ++D)
    Args.push_back(std::to_string(New[D]));
  return llvm::join(Args, ", ");
}

/// When no launch in the file follows the mark, the callers elsewhere must.
void noteCallers(const FunctionDecl &Kernel, llvm::StringRef Block,
                 llvm::StringRef Grid, EditSet &Edits, ASTContext &Ctx) {
  if (!KernelLaunches(Ctx, Kernel).calls().empty())
    return;
  Edits.addNote("'" + Kernel.getNameAsString() +
                "' is not launched in this file: its callers must now launch "
                "it with block(" +
                Block.str() + ") and grid(" + Grid.str() +
                "), as its #pragma optiml mark says");
}

} // namespace

/// The mark's block becomes \p New, and each grid dimension whose block
/// covered Old[D] elements and now covers \p Cover[D] is rescaled (grid
/// dimensions in \p AnyGrid that are not ceil-divs stay).
static llvm::Error rewriteMarkCover(const FunctionDecl &Kernel, const Dim3 &New,
                                    const Dim3 &Cover,
                                    const std::array<bool, 3> &AnyGrid,
                                    EditSet &Edits, ASTContext &Ctx) {
  auto M = findMarkLaunch(Kernel, Ctx);
  if (!M)
    return M.takeError();
  if (!*M)
    return llvm::Error::success();
  const Clause &Block = (*M)->Block, &Grid = (*M)->Grid;
  const Dim3 &Old = (*M)->Old;
  std::vector<std::string> GridArgs = Grid.Args;
  for (unsigned D = 0; D < 3; ++D)
    if (Old[D] != Cover[D])
      if (llvm::Error E =
              rescaleGridArg(GridArgs, D, Old[D], Cover[D],
                             AnyGrid[D] ? OtherGrid::Keep : OtherGrid::RoundUp))
        return E;
  const SourceManager &SM = Ctx.getSourceManager();
  std::string BlockText = blockText(Block, New);
  std::string GridText = dimsText(GridArgs, Grid.Args.size());
  if (llvm::Error E =
          Edits.addText(SM, Block.Begin, Block.End - Block.Begin, BlockText))
    return E;
  noteCallers(Kernel, BlockText, GridText, Edits, Ctx);
  return Edits.addText(SM, Grid.Begin, Grid.End - Grid.Begin, GridText);
}

llvm::Error optiml::rewriteMarkLaunch(const FunctionDecl &Kernel,
                                      const Dim3 &New,
                                      const std::array<bool, 3> &AnyGrid,
                                      EditSet &Edits, ASTContext &Ctx) {
  return rewriteMarkCover(Kernel, New, New, AnyGrid, Edits, Ctx);
}

llvm::Error optiml::rewriteMarkTiles(const FunctionDecl &Kernel,
                                     const Dim3 &New, const Dim3 &Tile,
                                     EditSet &Edits, ASTContext &Ctx) {
  return rewriteMarkCover(Kernel, New, Tile, {false, false, false}, Edits, Ctx);
}

/// Grid dimension \p Dim of \p Kernel's mark rescaled for blocks that now
/// each cover Num / Den times the elements they covered.
static llvm::Error rewriteMarkGridCover(const FunctionDecl &Kernel,
                                        unsigned Dim, uint64_t Num,
                                        uint64_t Den, EditSet &Edits,
                                        ASTContext &Ctx) {
  auto M = findMarkLaunch(Kernel, Ctx);
  if (!M)
    return M.takeError();
  if (!*M)
    return llvm::Error::success();
  const Clause &Grid = (*M)->Grid;
  uint64_t B = (*M)->Old[Dim];
  if (B * Num % Den != 0)
    return notApplicable("block " + llvm::Twine(AxisNames[Dim]) + " " +
                         llvm::Twine(B) + " is not a multiple of " +
                         llvm::Twine(Den));
  std::vector<std::string> GridArgs = Grid.Args;
  bool Guarded = ThreadGeometry::of(Kernel, Ctx).guardsEveryIndex(Kernel, Ctx);
  if (llvm::Error E =
          rescaleGridArg(GridArgs, Dim, B, B * Num / Den,
                         Guarded ? OtherGrid::RoundUp : OtherGrid::Refuse))
    return E;
  std::string GridText = dimsText(GridArgs, Grid.Args.size());
  noteCallers(Kernel, llvm::join((*M)->Block.Args, ", "), GridText, Edits, Ctx);
  return Edits.addText(Ctx.getSourceManager(), Grid.Begin,
                       Grid.End - Grid.Begin, GridText);
}

llvm::Error optiml::rewriteMarkGrid(const FunctionDecl &Kernel, unsigned Dim,
                                    uint64_t Factor, EditSet &Edits,
                                    ASTContext &Ctx) {
  return rewriteMarkGridCover(Kernel, Dim, Factor, 1, Edits, Ctx);
}

llvm::Error optiml::rewriteMarkGridSpread(const FunctionDecl &Kernel,
                                          unsigned Dim, uint64_t Ways,
                                          EditSet &Edits, ASTContext &Ctx) {
  return rewriteMarkGridCover(Kernel, Dim, 1, Ways, Edits, Ctx);
}

llvm::Error optiml::rewriteMarkBlock(const FunctionDecl &Kernel,
                                     const Dim3 &New, EditSet &Edits,
                                     ASTContext &Ctx) {
  auto M = findMarkLaunch(Kernel, Ctx);
  if (!M)
    return M.takeError();
  if (!*M)
    return llvm::Error::success();
  const Clause &Block = (*M)->Block;
  std::string BlockText = blockText(Block, New);
  noteCallers(Kernel, BlockText, llvm::join((*M)->Grid.Args, ", "), Edits, Ctx);
  return Edits.addText(Ctx.getSourceManager(), Block.Begin,
                       Block.End - Block.Begin, BlockText);
}
