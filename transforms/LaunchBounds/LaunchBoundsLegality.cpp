//===- LaunchBoundsLegality.cpp - may a kernel get __launch_bounds__? ----===//

#include "transforms/LaunchBounds/LaunchBoundsLegality.h"
#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"
#include "optiml/Analysis/Legality/LegalityError.h"

#include "clang/AST/Attr.h"

using namespace optiml;
using namespace clang;

using LaunchThreads = std::vector<std::pair<const Expr *, uint64_t>>;

/// Each launch's block operand and its threads per block.
static llvm::Expected<LaunchThreads>
threadsPerLaunch(const FunctionDecl &Kernel, ASTContext &Ctx) {
  KernelLaunches Launches(Ctx, Kernel);
  if (const Expr *Use = Launches.addressUse())
    return illegalAt(Use->getBeginLoc(), Ctx,
                     "the address of '" + Kernel.getName() +
                         "' is taken, so it may be launched with any block");
  LaunchThreads Out;
  if (Launches.calls().empty()) {
    // The mark's block(...) is the launch the spec verifies and times.
    auto Mark = markBlock(Kernel, Ctx);
    if (!Mark)
      return Mark.takeError();
    if (!*Mark)
      return illegalAt(Kernel.getLocation(), Ctx,
                       "'" + Kernel.getName() +
                           "' is not launched in this file and its #pragma "
                           "optiml mark gives no block(...), so its block "
                           "sizes are unknown");
    const auto &D = (*Mark)->Dims;
    Out.push_back({nullptr, D[0] * D[1] * D[2]});
    return Out;
  }
  for (const CUDAKernelCallExpr *Call : Launches.calls()) {
    ConfigOperand Block = LaunchConfig::operand(*Call, 1, Ctx);
    auto Dims = LaunchConfig::evaluate(Block, Ctx);
    if (!Dims)
      return illegalAt(
          Block.Arg->getBeginLoc(), Ctx,
          "the block of this launch is not a compile-time "
          "constant" +
              (Block.Unknown.empty() ? "" : " (" + Block.Unknown + ")"));
    Out.push_back({Block.Arg, (*Dims)[0] * (*Dims)[1] * (*Dims)[2]});
  }
  return Out;
}

llvm::Expected<uint64_t>
LaunchBoundsLegality::largestBlock(const FunctionDecl &Kernel,
                                   ASTContext &Ctx) {
  auto Launches = threadsPerLaunch(Kernel, Ctx);
  if (!Launches)
    return Launches.takeError();
  uint64_t Largest = 0;
  for (const auto &[Arg, Threads] : *Launches)
    Largest = std::max(Largest, Threads);
  return Largest;
}

llvm::Error LaunchBoundsLegality::check(const FunctionDecl &Kernel,
                                        uint64_t MaxThreads, ASTContext &Ctx) {
  if (const auto *LB = Kernel.getAttr<CUDALaunchBoundsAttr>())
    return notApplicableAt(LB->getLocation(), Ctx,
                           "'" + Kernel.getName() +
                               "' already has __launch_bounds__");
  auto Launches = threadsPerLaunch(Kernel, Ctx);
  if (!Launches)
    return Launches.takeError();
  for (const auto &[Arg, Threads] : *Launches)
    if (Threads > MaxThreads)
      return illegalAt(Arg ? Arg->getBeginLoc() : Kernel.getLocation(), Ctx,
                       "this launch uses " + llvm::Twine(Threads) +
                           " threads per block, more than max-threads=" +
                           llvm::Twine(MaxThreads));
  return llvm::Error::success();
}
