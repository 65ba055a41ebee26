//===- BlockSize.cpp - retune a kernel's block, at every launch ----------===//
//
// Rewrites every launch of a kernel to a new block (x, y, z) and rescales
// each grid dimension written as ceil(N / B) so the same problem stays
// covered. Legal only for kernels that guard their global indices and do
// not share work within a block (BlockSizeLegality).
//
//===----------------------------------------------------------------------===//

#include "optiml/Rewrite/GridRescale.h"
#include "optiml/Rewrite/MarkLaunchRewrite.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/BlockSize/BlockSizeLegality.h"
#include "transforms/TransformFactories.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet> emit(const FunctionDecl &K,
                                    const BlockSizePlan &Plan, const Dim3 &New,
                                    ASTContext &Ctx);

static Dim3 blockOf(const ParamValues &P) {
  return {uint64_t(P.getInt("x")), uint64_t(P.getInt("y")),
          uint64_t(P.getInt("z"))};
}

/// Suggests a shape of as many dimensions as the kernel indexes, different
/// from the block of its first launch.
static ParamValues defaults(const TransformDescriptor &, ParamValues V,
                            const Site &S, ASTContext &Ctx) {
  auto G = BlockSizeLegality::checkKernel(*S.Kernel, Ctx);
  if (!G) {
    llvm::consumeError(G.takeError());
    return V;
  }
  const std::array<bool, 3> *Dims = &G->IndexDims;
  Dim3 Old = {0, 0, 0};
  KernelLaunches Launches(Ctx, *S.Kernel);
  if (!Launches.calls().empty()) {
    if (auto B = LaunchConfig::evaluate(
            LaunchConfig::operand(*Launches.calls().front(), 1, Ctx), Ctx))
      Old = *B;
  } else if (auto Mark = markBlock(*S.Kernel, Ctx); Mark && *Mark) {
    Old = (*Mark)->Dims;
  } else if (!Mark) {
    llvm::consumeError(Mark.takeError());
  }
  Dim3 First = {128, 1, 1}, Second = {256, 1, 1};
  if ((*Dims)[2])
    First = {32, 4, 2}, Second = {16, 8, 2};
  else if ((*Dims)[1])
    First = {32, 8, 1}, Second = {16, 16, 1};
  Dim3 Pick = First == Old ? Second : First;
  for (unsigned D = 0; D < 3; ++D)
    if (!(*Dims)[D] && Old[D] != 0)
      Pick[D] = Old[D]; // Unindexed dimensions keep their size.
  V.set("x", std::to_string(Pick[0]));
  V.set("y", std::to_string(Pick[1]));
  V.set("z", std::to_string(Pick[2]));
  return V;
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  Dim3 New = blockOf(P);
  return Rewrite::of(BlockSizeLegality::analyze(*S.Kernel, New, Ctx),
                     [&K = *S.Kernel, New, &Ctx](const auto &Plan) {
                       return emit(K, Plan, New, Ctx);
                     });
}

/// One launch's edits; variables already rewritten are in \p Done.
/// \p Replaced: the grid text the rewrite replaces, where a block
/// variable may be read without pinning its old value.
static llvm::Error
rewriteLaunch(const FunctionDecl &Kernel, const LaunchShape &S, const Dim3 &New,
              llvm::ArrayRef<SourceRange> Replaced, EditSet &Edits,
              llvm::SmallPtrSetImpl<const VarDecl *> &Done, ASTContext &Ctx) {
  if (S.OldBlock == New)
    return llvm::Error::success();
  if (llvm::Error E =
          rewriteLaunchBlock(Kernel, S, New, Replaced, Edits, Done, Ctx))
    return E;
  return rewriteGrid(Kernel, S, New, Edits, Done, Ctx);
}

static llvm::Expected<EditSet> emit(const FunctionDecl &K,
                                    const BlockSizePlan &Plan, const Dim3 &New,
                                    ASTContext &Ctx) {
  EditSet Edits;
  llvm::SmallPtrSet<const VarDecl *, 4> Done;
  std::vector<SourceRange> Replaced = gridTextReplaced(K, Plan.Shapes, Ctx);
  for (const LaunchShape &Shape : Plan.Shapes)
    if (llvm::Error E =
            rewriteLaunch(K, Shape, New, Replaced, Edits, Done, Ctx))
      return E;
  if (llvm::Error E = rewriteMarkLaunch(K, New, Plan.AnyGrid, Edits, Ctx))
    return E;
  for (const ThreadGeometry::FixedExtent &F : Plan.FixedExtents)
    if (llvm::Error E = Edits.add(
            *F.Constant,
            changeTo(node(EditSet::Root.str()),
                     cat(std::string("blockDim.") + AxisNames[F.Dim])),
            Ctx))
      return E;
  return Edits;
}

std::unique_ptr<Transform> optiml::createBlockSize(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan, defaults);
}
