//===- GridRescale.cpp - keep ceil(N / B) grids covering N ---------------===//

#include "optiml/Rewrite/GridRescale.h"
#include "optiml/Rewrite/MarkLaunchRewrite.h"

#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"
#include "optiml/Support/Error.h"

#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

bool optiml::onlyConfigures(const VarDecl &Var, const FunctionDecl &Kernel,
                            unsigned Index, ASTContext &Ctx,
                            llvm::ArrayRef<SourceRange> Replaced) {
  const FunctionDecl *F = dyn_cast<FunctionDecl>(Var.getDeclContext());
  if (!F || !F->getBody())
    return false;
  KernelLaunches Launches(Ctx, Kernel);
  for (const DeclRefExpr *Use : usesOf(Var, *F->getBody(), Ctx)) {
    bool Configures = llvm::any_of(Launches.calls(), [&](const auto *Call) {
      return Call->getConfig()->getArg(Index)->getSourceRange().fullyContains(
          Use->getSourceRange());
    });
    bool Gone = llvm::any_of(Replaced, [&](SourceRange R) {
      return R.fullyContains(Use->getSourceRange());
    });
    if (!Configures && !Gone)
      return false;
  }
  return true;
}

std::vector<SourceRange>
optiml::gridTextReplaced(const FunctionDecl &Kernel,
                         llvm::ArrayRef<LaunchShape> Shapes, ASTContext &Ctx) {
  std::vector<SourceRange> Out;
  for (const LaunchShape &S : Shapes) {
    if (S.Grid.Var && !onlyConfigures(*S.Grid.Var, Kernel, 0, Ctx))
      continue;
    for (unsigned D = 0; D < S.Grid.Dims.size() && D < 3; ++D)
      if (S.GridDims[D])
        Out.push_back(S.Grid.Dims[D]->getSourceRange());
  }
  return Out;
}

/// The text of a grid component ceil(N / B) rewritten to ceil(N / Divisor).
static std::string rescaled(const CeilDiv &C, uint64_t Divisor,
                            ASTContext &Ctx) {
  std::string Count = textOf(C.Count->getSourceRange(), Ctx);
  // N joins a sum: keep it whole unless it binds at least as tightly.
  const auto *Op = dyn_cast<BinaryOperator>(C.Count->IgnoreImpCasts());
  if (!C.Callee && (isa<ConditionalOperator>(C.Count->IgnoreImpCasts()) ||
                    (Op && !Op->isMultiplicativeOp() && !Op->isAdditiveOp())))
    Count = "(" + Count + ")";
  if (Divisor == 1)
    return Count; // A block per element: N blocks.
  if (C.Callee)
    return textOf(C.Callee->getSourceRange(), Ctx) + "(" + Count + ", " +
           std::to_string(Divisor) + ")";
  return "(" + Count + " + " + std::to_string(Divisor - 1) + ") / " +
         std::to_string(Divisor);
}

static llvm::Error replace(const Expr &E, std::string Text, EditSet &Edits,
                           ASTContext &Ctx) {
  return Edits.add(E, changeTo(node(EditSet::Root.str()), cat(std::move(Text))),
                   Ctx);
}

llvm::Error optiml::rewriteGrid(const FunctionDecl &Kernel,
                                const LaunchShape &S, const Dim3 &Divisor,
                                EditSet &Edits,
                                llvm::SmallPtrSetImpl<const VarDecl *> &Done,
                                ASTContext &Ctx) {
  const ConfigOperand &G = S.Grid;
  if (G.Var && Done.contains(G.Var))
    return llvm::Error::success();
  bool InPlace = !G.Var || onlyConfigures(*G.Var, Kernel, 0, Ctx);
  if (G.Var && InPlace)
    Done.insert(G.Var);
  std::vector<std::string> Texts;
  for (unsigned D = 0; D < G.Dims.size(); ++D) {
    if (!S.GridDims[D]) {
      Texts.push_back(textOf(G.Dims[D]->getSourceRange(), Ctx));
      continue;
    }
    Texts.push_back(rescaled(*S.GridDims[D], Divisor[D], Ctx));
    if (InPlace)
      if (llvm::Error E = replace(*G.Dims[D], Texts.back(), Edits, Ctx))
        return E;
  }
  if (InPlace)
    return llvm::Error::success();
  // The variable serves other code too: leave it, write the grid inline.
  std::string Text =
      G.IsDim3 ? "dim3(" + llvm::join(Texts, ", ") + ")" : Texts.front();
  return replace(*G.Arg, Text, Edits, Ctx);
}

/// "x, y" or "x, y, z": at least \p MinDims components, more when needed.
static std::string dimList(const Dim3 &D, size_t MinDims) {
  size_t N = D[2] != 1 ? 3 : D[1] != 1 ? 2 : 1;
  N = std::max(N, MinDims);
  std::vector<std::string> Parts;
  for (size_t I = 0; I < N; ++I)
    Parts.push_back(std::to_string(D[I]));
  return llvm::join(Parts, ", ");
}

llvm::Error optiml::rewriteLaunchBlock(
    const FunctionDecl &Kernel, const LaunchShape &S, const Dim3 &New,
    llvm::ArrayRef<SourceRange> Replaced, EditSet &Edits,
    llvm::SmallPtrSetImpl<const VarDecl *> &Done, ASTContext &Ctx) {
  const ConfigOperand &B = S.Block;
  bool Scalar = New[1] == 1 && New[2] == 1;
  if (B.Var && Done.contains(B.Var))
    return llvm::Error::success();
  if (B.Var && onlyConfigures(*B.Var, Kernel, 1, Ctx, Replaced) &&
      (B.IsDim3 || Scalar)) {
    Done.insert(B.Var);
    if (!B.IsDim3)
      return replace(*B.Dims.front(), std::to_string(New[0]), Edits, Ctx);
    // `dim3 block(16, 16)`: the argument list.
    return Edits.add(*B.Construct,
                     changeTo(constructExprArgs(EditSet::Root.str()),
                              cat(dimList(New, B.Dims.size()))),
                     Ctx);
  }
  std::string Text = Scalar && !B.IsDim3 ? std::to_string(New[0])
                                         : "dim3(" + dimList(New, 1) + ")";
  return replace(*B.Arg, Text, Edits, Ctx);
}

/// Grid dimension \p Dim of every launch in \p Shapes rescaled for blocks
/// that now each cover Num / Den times the elements they covered.
static llvm::Error rescaleLaunchGrids(const FunctionDecl &Kernel,
                                      llvm::ArrayRef<LaunchShape> Shapes,
                                      unsigned Dim, uint64_t Num, uint64_t Den,
                                      EditSet &Edits, ASTContext &Ctx) {
  llvm::SmallPtrSet<const VarDecl *, 4> Done;
  for (const LaunchShape &S : Shapes) {
    if (S.OldBlock[Dim] * Num % Den != 0)
      return makeError(ErrorKind::NotApplicable,
                       "the block of a launch is not a multiple of " +
                           llvm::Twine(Den) + " in " + AxisNames[Dim]);
    Dim3 Divisor = {0, 0, 0};
    Divisor[Dim] = S.OldBlock[Dim] * Num / Den;
    if (llvm::Error E = rewriteGrid(Kernel, S, Divisor, Edits, Done, Ctx))
      return E;
  }
  return llvm::Error::success();
}

llvm::Error optiml::divideGrids(const FunctionDecl &Kernel,
                                llvm::ArrayRef<LaunchShape> Shapes,
                                unsigned Dim, uint64_t Factor, EditSet &Edits,
                                ASTContext &Ctx) {
  if (llvm::Error E =
          rescaleLaunchGrids(Kernel, Shapes, Dim, Factor, 1, Edits, Ctx))
    return E;
  return rewriteMarkGrid(Kernel, Dim, Factor, Edits, Ctx);
}

llvm::Error optiml::spreadGrids(const FunctionDecl &Kernel,
                                llvm::ArrayRef<LaunchShape> Shapes,
                                unsigned Dim, uint64_t Ways, EditSet &Edits,
                                ASTContext &Ctx) {
  if (llvm::Error E =
          rescaleLaunchGrids(Kernel, Shapes, Dim, 1, Ways, Edits, Ctx))
    return E;
  return rewriteMarkGridSpread(Kernel, Dim, Ways, Edits, Ctx);
}

llvm::Error optiml::blockPerElement(const FunctionDecl &Kernel,
                                    llvm::ArrayRef<LaunchShape> Shapes,
                                    const Dim3 &Block, EditSet &Edits,
                                    ASTContext &Ctx) {
  llvm::SmallPtrSet<const VarDecl *, 4> Done;
  std::vector<SourceRange> Replaced = gridTextReplaced(Kernel, Shapes, Ctx);
  for (const LaunchShape &S : Shapes) {
    if (llvm::Error E =
            rewriteLaunchBlock(Kernel, S, Block, Replaced, Edits, Done, Ctx))
      return E;
    if (llvm::Error E = rewriteGrid(Kernel, S, {1, 0, 0}, Edits, Done, Ctx))
      return E;
  }
  return rewriteMarkTiles(Kernel, Block, {1, 1, 1}, Edits, Ctx);
}

llvm::Expected<EditSet>
optiml::rewriteBodyAndGrids(const FunctionDecl &Kernel, std::string Body,
                            llvm::ArrayRef<LaunchShape> Shapes, unsigned Dim,
                            uint64_t Factor, ASTContext &Ctx) {
  EditSet Edits;
  if (llvm::Error E = Edits.add(
          *Kernel.getBody(),
          changeTo(node(EditSet::Root.str()), cat(std::move(Body))), Ctx))
    return E;
  if (Factor == 1)
    return Edits; // The grids stay as they are.
  if (llvm::Error E = divideGrids(Kernel, Shapes, Dim, Factor, Edits, Ctx))
    return E;
  return Edits;
}
