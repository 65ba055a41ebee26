//===- LaunchShape.cpp - launches whose geometry a rewrite changes -------===//

#include "optiml/Analysis/Legality/LaunchShape.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/ThreadGeometry.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"

using namespace optiml;
using namespace clang;

const char *const optiml::AxisNames[3] = {"x", "y", "z"};

llvm::Expected<LaunchShape> LaunchShape::read(const CUDAKernelCallExpr &Call,
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
  return S;
}

llvm::Error LaunchShape::matchGrid(unsigned D, const GridChange &Change,
                                   ASTContext &Ctx, bool Guarded) {
  uint64_t B = OldBlock[D];
  if (D >= Grid.Dims.size())
    return illegalAt(
        Grid.Arg->getBeginLoc(), Ctx,
        "the grid of this launch has no " + llvm::Twine(AxisNames[D]) +
            " expression" +
            (Grid.Unknown.empty() ? "" : " (" + Grid.Unknown + ")") + " to " +
            Change.Verb);
  GridDims[D] = matchCeilDiv(Grid.Dims[D], B, Ctx, Guarded);
  if (!GridDims[D])
    return illegalAt(
        Grid.Dims[D]->getBeginLoc(), Ctx,
        "grid " + llvm::Twine(AxisNames[D]) + " '" +
            textOf(Grid.Dims[D]->getSourceRange(), Ctx) + "' is not ceil(N / " +
            llvm::Twine(B) + ") in a known form ((N + " + llvm::Twine(B - 1) +
            ") / " + llvm::Twine(B) + ", ceil_div(N, " + llvm::Twine(B) + ")" +
            (Guarded ? ", N / " + llvm::Twine(B) : "") + "), so it cannot " +
            Change.Purpose);
  return llvm::Error::success();
}

llvm::Expected<std::vector<const CUDAKernelCallExpr *>>
optiml::launchesInReach(const FunctionDecl &Kernel, llvm::StringRef What,
                        ASTContext &Ctx) {
  KernelLaunches Launches(Ctx, Kernel);
  if (llvm::Error E = Launches.checkAllInReach(Kernel, Ctx))
    return E;
  if (Launches.calls().empty()) {
    auto Mark = markBlock(Kernel, Ctx);
    if (!Mark)
      return Mark.takeError();
    if (!*Mark)
      return illegalAt(Kernel.getLocation(), Ctx,
                       "'" + Kernel.getName() +
                           "' is not launched in this file and has no "
                           "#pragma optiml mark with its launch, so " +
                           What + " is out of reach");
  }
  return std::vector<const CUDAKernelCallExpr *>(Launches.calls().begin(),
                                                 Launches.calls().end());
}

llvm::Expected<std::vector<LaunchShape>>
optiml::dividableLaunches(const FunctionDecl &Kernel, unsigned Dim,
                          ASTContext &Ctx, const GridChange &Change) {
  auto Calls = launchesInReach(Kernel, "its grid", Ctx);
  if (!Calls)
    return Calls.takeError();
  std::vector<LaunchShape> Shapes;
  bool Guarded = ThreadGeometry::of(Kernel, Ctx).guardsEveryIndex(Kernel, Ctx);
  for (const CUDAKernelCallExpr *Call : *Calls) {
    auto S = LaunchShape::read(*Call, Ctx);
    if (!S)
      return S.takeError();
    if (llvm::Error E = S->matchGrid(Dim, Change, Ctx, Guarded))
      return E;
    Shapes.push_back(std::move(*S));
  }
  return Shapes;
}

llvm::Error optiml::checkNoCooperation(const FunctionDecl &Kernel,
                                       const CooperationReasons &Why,
                                       ASTContext &Ctx) {
  const CallExpr *Call = nullptr;
  const VarDecl *Shared = nullptr;
  auto F = [&](const Stmt *N) {
    if (const auto *D = dyn_cast<DeclStmt>(N))
      for (const Decl *X : D->decls())
        if (X->hasAttr<CUDASharedAttr>() && !Shared)
          Shared = cast<VarDecl>(X);
    if (const auto *C = dyn_cast<CallExpr>(N);
        C && !Call && isCooperativeCall(*C))
      Call = C;
  };
  forEachNode(Kernel.getBody(), F);
  if (Shared)
    return illegalAt(Shared->getLocation(), Ctx,
                     "the kernel uses __shared__ '" + Shared->getName() +
                         "', " + Why.Shared);
  if (Call)
    return illegalAt(Call->getBeginLoc(), Ctx,
                     "the kernel calls '" + Call->getDirectCallee()->getName() +
                         "', " + Why.Call);
  return llvm::Error::success();
}
