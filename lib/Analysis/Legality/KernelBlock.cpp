//===- KernelBlock.cpp - the block a kernel is launched with -------------===//

#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/MarkClause.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

using Dim3 = std::array<uint64_t, 3>;

llvm::Expected<std::optional<MarkBlock>>
optiml::markBlock(const FunctionDecl &Kernel, ASTContext &Ctx) {
  std::optional<KernelMark> Mark = KernelFinder::markOf(Kernel, Ctx);
  if (!Mark)
    return std::nullopt;
  auto Args = markClauseArgs(Mark->Clauses, "block");
  if (!Args)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  MarkBlock B;
  B.Where =
      SM.translateLineCol(SM.getMainFileID(), Mark->Pos.Line, Mark->Pos.Column);
  for (size_t I = 0; I < Args->size(); ++I)
    if (I >= 3 || !llvm::to_integer((*Args)[I], B.Dims[I], 10))
      return illegalAt(B.Where, Ctx,
                       "the block(...) of the #pragma optiml mark is not "
                       "made of integer literals, so the block the spec "
                       "launches is unknown");
  return B;
}

llvm::Expected<Dim3> optiml::kernelBlock(const FunctionDecl &Kernel,
                                         ASTContext &Ctx) {
  KernelLaunches Launches(Ctx, Kernel);
  if (llvm::Error E = Launches.checkAllInReach(Kernel, Ctx))
    return E;
  std::optional<Dim3> Found;
  auto Agree = [&](const Dim3 &B, SourceLocation Where) -> llvm::Error {
    if (Found && *Found != B)
      return illegalAt(Where, Ctx,
                       "this launch uses another block than the kernel's "
                       "other launches or its mark");
    Found = B;
    return llvm::Error::success();
  };
  auto Mark = markBlock(Kernel, Ctx);
  if (!Mark)
    return Mark.takeError();
  if (*Mark)
    Found = (*Mark)->Dims;
  for (const CUDAKernelCallExpr *Call : Launches.calls()) {
    auto B = LaunchConfig::evaluate(LaunchConfig::operand(*Call, 1, Ctx), Ctx);
    if (!B)
      return illegalAt(Call->getConfig()->getArg(1)->getBeginLoc(), Ctx,
                       "this launch's block is not a compile-time constant");
    if (llvm::Error E = Agree(*B, Call->getBeginLoc()))
      return std::move(E);
  }
  if (!Found)
    return illegalAt(Kernel.getLocation(), Ctx,
                     "the block size is unknown: no launch in this file and "
                     "no block(...) in the kernel's #pragma optiml mark");
  return *Found;
}

llvm::Expected<KnownBlocks> optiml::knownBlocks(const FunctionDecl &Kernel,
                                                ASTContext &Ctx) {
  KnownBlocks Out;
  KernelLaunches Launches(Ctx, Kernel);
  Out.Unknown = Launches.addressUse() || Launches.calls().empty();
  for (const CUDAKernelCallExpr *Call : Launches.calls()) {
    ConfigOperand Block = LaunchConfig::operand(*Call, 1, Ctx);
    if (auto B = LaunchConfig::evaluate(Block, Ctx))
      Out.Blocks.push_back({Block.Arg->getBeginLoc(), *B});
    else
      Out.Unknown = true;
  }
  auto Mark = markBlock(Kernel, Ctx);
  if (!Mark)
    return Mark.takeError();
  if (*Mark)
    Out.Blocks.push_back({(*Mark)->Where, (*Mark)->Dims});
  return Out;
}
