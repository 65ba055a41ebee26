//===- BlockSizeLegality.cpp - may a kernel run with another block? ------===//

#include "optiml/Analysis/Legality/BlockSizeLegality.h"
#include "optiml/Analysis/Legality/BoundsGuard.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
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

static const char *const AxisNames[] = {"x", "y", "z"};

/// Block-level cooperation: shared memory and barriers / warp exchanges.
static llvm::Error checkNoCooperation(const FunctionDecl &Kernel,
                                      ASTContext &Ctx) {
  const auto Shared = varDecl(hasAttr(attr::CUDAShared)).bind("v");
  for (const BoundNodes &N :
       match(findAll(declStmt(has(Shared))), *Kernel.getBody(), Ctx)) {
    const auto *V = N.getNodeAs<VarDecl>("v");
    return illegalAt(V->getLocation(), Ctx,
                     "the kernel uses __shared__ '" + V->getName() +
                         "', whose size or indexing may assume the block "
                         "size");
  }
  const auto Call = callExpr().bind("c");
  for (const BoundNodes &N : match(findAll(Call), *Kernel.getBody(), Ctx)) {
    const auto *C = N.getNodeAs<CallExpr>("c");
    if (isCooperativeCall(*C))
      return illegalAt(C->getBeginLoc(), Ctx,
                       "the kernel calls '" + C->getDirectCallee()->getName() +
                           "', so its threads cooperate within a block");
  }
  return llvm::Error::success();
}

llvm::Expected<std::array<bool, 3>>
BlockSizeLegality::checkKernel(const FunctionDecl &Kernel, ASTContext &Ctx) {
  if (llvm::Error E = checkNoCooperation(Kernel, Ctx))
    return E;
  ThreadGeometry G = ThreadGeometry::of(Kernel, Ctx);
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
  return G.IndexDims;
}

static std::string dimsText(const Dim3 &D) {
  return "(" + std::to_string(D[0]) + ", " + std::to_string(D[1]) + ", " +
         std::to_string(D[2]) + ")";
}

llvm::Expected<LaunchShape>
BlockSizeLegality::shapeOf(const CUDAKernelCallExpr &Call, const Dim3 &New,
                           const std::array<bool, 3> &IndexDims,
                           ASTContext &Ctx) {
  LaunchShape S;
  S.Call = &Call;
  S.Block = LaunchConfig::operand(Call, 1, Ctx);
  auto Old = LaunchConfig::evaluate(S.Block, Ctx);
  if (!Old)
    return illegalAt(S.Block.Arg->getBeginLoc(), Ctx,
                     "the block of this launch is not a compile-time "
                     "constant" +
                         (S.Block.Unknown.empty()
                              ? std::string()
                              : " (" + S.Block.Unknown + ")"));
  S.OldBlock = *Old;
  S.Grid = LaunchConfig::operand(Call, 0, Ctx);
  for (unsigned D = 0; D < 3; ++D) {
    if (S.OldBlock[D] == New[D])
      continue;
    if (!IndexDims[D])
      return illegalAt(S.Block.Arg->getBeginLoc(), Ctx,
                       "the kernel has no global index in " +
                           llvm::Twine(AxisNames[D]) + ", so the block's " +
                           AxisNames[D] + " must stay " +
                           llvm::Twine(S.OldBlock[D]));
    if (D >= S.Grid.Dims.size())
      return illegalAt(
          S.Grid.Arg->getBeginLoc(), Ctx,
          "the grid of this launch has no " + llvm::Twine(AxisNames[D]) +
              " expression" +
              (S.Grid.Unknown.empty() ? "" : " (" + S.Grid.Unknown + ")") +
              " to rescale");
    S.GridDims[D] = matchCeilDiv(S.Grid.Dims[D], S.OldBlock[D], Ctx);
    if (!S.GridDims[D])
      return illegalAt(
          S.Grid.Dims[D]->getBeginLoc(), Ctx,
          "grid " + llvm::Twine(AxisNames[D]) + " '" +
              textOf(S.Grid.Dims[D]->getSourceRange(), Ctx) +
              "' is not written as (N + " + llvm::Twine(S.OldBlock[D] - 1) +
              ") / " + llvm::Twine(S.OldBlock[D]) + " or ceil_div(N, " +
              llvm::Twine(S.OldBlock[D]) + "), so it cannot follow the block");
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

llvm::Expected<std::vector<LaunchShape>>
BlockSizeLegality::analyze(const FunctionDecl &Kernel, const Dim3 &New,
                           ASTContext &Ctx) {
  KernelLaunches Launches(Ctx, Kernel);
  if (llvm::Error E = Launches.checkAllInReach(Kernel, Ctx))
    return E;
  if (Launches.calls().empty())
    return illegalAt(Kernel.getLocation(), Ctx,
                     "'" + Kernel.getName() +
                         "' is not launched in this file, so its launch "
                         "configuration is out of reach");
  if (llvm::Error E = checkBlock(Kernel, New, Ctx))
    return E;
  auto IndexDims = checkKernel(Kernel, Ctx);
  if (!IndexDims)
    return IndexDims.takeError();
  std::vector<LaunchShape> Shapes;
  bool Changes = false;
  for (const CUDAKernelCallExpr *Call : Launches.calls()) {
    auto S = shapeOf(*Call, New, *IndexDims, Ctx);
    if (!S)
      return S.takeError();
    Changes |= S->OldBlock != New;
    Shapes.push_back(std::move(*S));
  }
  if (!Changes)
    return notApplicableAt(Kernel.getLocation(), Ctx,
                           "every launch of '" + Kernel.getName() +
                               "' already uses a block of " + dimsText(New));
  return Shapes;
}
