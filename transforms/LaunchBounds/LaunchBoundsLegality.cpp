//===- LaunchBoundsLegality.cpp - may a kernel get __launch_bounds__? ----===//

#include "transforms/LaunchBounds/LaunchBoundsLegality.h"
#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/LaunchShape.h"
#include "optiml/Analysis/Legality/LegalityError.h"

#include "clang/AST/Attr.h"

using namespace optiml;
using namespace clang;

using LaunchThreads = std::vector<std::pair<const Expr *, uint64_t>>;

/// Each launch's block operand and its threads per block; with no launch in
/// the file, the mark's block(...), the launch the spec verifies and times.
static llvm::Expected<LaunchThreads>
threadsPerLaunch(const FunctionDecl &Kernel, ASTContext &Ctx) {
  auto Calls = launchesInReach(Kernel, "its block size", Ctx);
  if (!Calls)
    return Calls.takeError();
  LaunchThreads Out;
  if (Calls->empty()) {
    auto Mark = markBlock(Kernel, Ctx);
    if (!Mark)
      return Mark.takeError();
    const auto &D = (**Mark).Dims;
    Out.push_back({nullptr, D[0] * D[1] * D[2]});
  }
  for (const CUDAKernelCallExpr *Call : *Calls) {
    auto Shape = LaunchShape::read(*Call, Ctx);
    if (!Shape)
      return Shape.takeError();
    const Dim3 &D = Shape->OldBlock;
    Out.push_back({Shape->Block.Arg, D[0] * D[1] * D[2]});
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
                                        uint64_t MaxThreads, uint64_t MinBlocks,
                                        ASTContext &Ctx) {
  if (const auto *LB = Kernel.getAttr<CUDALaunchBoundsAttr>())
    return notApplicableAt(LB->getLocation(), Ctx,
                           "'" + Kernel.getName() +
                               "' already has __launch_bounds__");
  if (MaxThreads * MinBlocks > SmThreads)
    return notApplicableAt(Kernel.getLocation(), Ctx,
                           llvm::Twine(MinBlocks) + " blocks of " +
                               llvm::Twine(MaxThreads) +
                               " threads do not fit on one SM (" +
                               llvm::Twine(SmThreads) + " threads)");
  // No launch, seen or not, can exceed the hardware's limit.
  if (MaxThreads >= DeviceMaxThreads)
    return llvm::Error::success();
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
