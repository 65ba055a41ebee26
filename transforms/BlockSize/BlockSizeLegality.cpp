//===- BlockSizeLegality.cpp - may a kernel run with another block? ------===//

#include "transforms/BlockSize/BlockSizeLegality.h"
#include "optiml/Analysis/Legality/BoundsGuard.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/ThreadGeometry.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace optiml;
using namespace clang;
using namespace clang::ast_matchers;

llvm::Expected<ThreadGeometry>
BlockSizeLegality::checkKernel(const FunctionDecl &Kernel, ASTContext &Ctx) {
  if (llvm::Error E = checkNoCooperation(
          Kernel,
          {"whose size or indexing may assume the block size",
           "so its threads cooperate within a block"},
          Ctx))
    return E;
  // Indices that spell the block as a number (`blockIdx.x * 16`) count
  // when every launch uses that number: the rewrite writes blockDim there.
  std::optional<Dim3> Block;
  if (auto B = kernelBlock(Kernel, Ctx))
    Block = *B;
  else
    llvm::consumeError(B.takeError());
  ThreadGeometry G = ThreadGeometry::of(Kernel, Ctx, Block);
  if (!G.Strays.empty())
    return illegalAt(G.Strays.front().Where->getBeginLoc(), Ctx,
                     "the kernel " + G.Strays.front().What +
                         ", so it may assume the block size");
  if (!G.LooseIndices.empty())
    return illegalAt(G.LooseIndices.front()->getBeginLoc(), Ctx,
                     "this global index is not kept in a variable, so its "
                     "bounds check cannot be followed");
  if (G.IndexVars.empty())
    return illegalAt(Kernel.getLocation(), Ctx,
                     "'" + Kernel.getName() +
                         "' computes no global index (blockIdx.x * "
                         "blockDim.x + threadIdx.x)");
  if (llvm::Error E = BoundsGuard::check(Kernel, G.IndexVars, Ctx))
    return E;
  return G;
}

static std::string dimsText(const Dim3 &D) {
  return "(" + std::to_string(D[0]) + ", " + std::to_string(D[1]) + ", " +
         std::to_string(D[2]) + ")";
}

llvm::Expected<LaunchShape>
BlockSizeLegality::shapeOf(const CUDAKernelCallExpr &Call, const Dim3 &New,
                           const ThreadGeometry &G, ASTContext &Ctx) {
  auto S = LaunchShape::read(Call, Ctx);
  if (!S)
    return S.takeError();
  for (unsigned D = 0; D < 3; ++D) {
    if (S->OldBlock[D] == New[D])
      continue;
    if (!G.IndexDims[D])
      return illegalAt(S->Block.Arg->getBeginLoc(), Ctx,
                       "the kernel has no global index in " +
                           llvm::Twine(AxisNames[D]) + ", so the block's " +
                           AxisNames[D] + " must stay " +
                           llvm::Twine(S->OldBlock[D]));
    // A grid-stride loop covers the problem with any grid: leave it.
    if (G.GridStrideDims[D] &&
        (S->Grid.Dims.size() <= D ||
         !matchCeilDiv(S->Grid.Dims[D], S->OldBlock[D], Ctx,
                       /*AllowTruncating=*/true)))
      continue;
    if (llvm::Error E = S->matchGrid(D, {"rescale", "follow the block"}, Ctx,
                                     /*Guarded=*/true))
      return E;
  }
  return S;
}

/// Launch-independent limits on the new block itself.
static llvm::Error checkBlock(const FunctionDecl &Kernel, const Dim3 &New,
                              ASTContext &Ctx) {
  uint64_t Threads = New[0] * New[1] * New[2];
  if (Threads > 1024 || New[2] > 64)
    return illegalAt(Kernel.getLocation(), Ctx,
                     "a block of " + dimsText(New) + " has " +
                         llvm::Twine(Threads) +
                         " threads; CUDA allows at most 1024 (and z <= 64)");
  if (const auto *LB = Kernel.getAttr<CUDALaunchBoundsAttr>()) {
    std::optional<int64_t> Max =
        LaunchConfig::constant(LB->getMaxThreads(), Ctx);
    if (!Max || uint64_t(*Max) < Threads)
      return illegalAt(LB->getLocation(), Ctx,
                       "the kernel's __launch_bounds__ allows fewer than " +
                           llvm::Twine(Threads) + " threads per block");
  }
  return llvm::Error::success();
}

llvm::Expected<BlockSizePlan>
BlockSizeLegality::analyze(const FunctionDecl &Kernel, const Dim3 &New,
                           ASTContext &Ctx) {
  auto Calls = launchesInReach(Kernel, "its launch configuration", Ctx);
  if (!Calls)
    return Calls.takeError();
  if (llvm::Error E = checkBlock(Kernel, New, Ctx))
    return E;
  auto G = checkKernel(Kernel, Ctx);
  if (!G)
    return G.takeError();
  BlockSizePlan Plan;
  Plan.AnyGrid = G->GridStrideDims;
  Plan.FixedExtents = G->FixedExtents;
  bool Changes = false;
  for (const CUDAKernelCallExpr *Call : *Calls) {
    auto S = shapeOf(*Call, New, *G, Ctx);
    if (!S)
      return S.takeError();
    Changes |= S->OldBlock != New;
    Plan.Shapes.push_back(std::move(*S));
  }
  if (Calls->empty()) {
    // launchesInReach found the mark's launch instead.
    auto Mark = markBlock(Kernel, Ctx);
    if (!Mark)
      return Mark.takeError();
    Changes = (*Mark)->Dims != New;
    for (unsigned D = 0; D < 3; ++D)
      if (!G->IndexDims[D] && (*Mark)->Dims[D] != New[D])
        return illegalAt((*Mark)->Where, Ctx,
                         "the kernel has no global index in " +
                             llvm::Twine(AxisNames[D]) + ", so the block's " +
                             AxisNames[D] + " must stay " +
                             llvm::Twine((*Mark)->Dims[D]));
  }
  if (!Changes)
    return notApplicableAt(Kernel.getLocation(), Ctx,
                           "every launch of '" + Kernel.getName() +
                               "' already uses a block of " + dimsText(New));
  return Plan;
}
