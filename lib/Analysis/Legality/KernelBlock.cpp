//===- KernelBlock.cpp - the block a kernel is launched with -------------===//

#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"
#include "optiml/Analysis/Legality/LegalityError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace optiml;
using namespace clang;

using Dim3 = std::array<uint64_t, 3>;

/// The mark's `block(x[, y[, z]])` when it is made of integer literals.
static llvm::Expected<std::optional<Dim3>> markBlock(const FunctionDecl &Kernel,
                                                     ASTContext &Ctx) {
  KernelInventory Inv = KernelFinder::find(Ctx);
  const KernelInfo *K = Inv.find(Kernel.getQualifiedNameAsString());
  if (!K || !K->Mark)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 2> M;
  llvm::Regex Clause("(^|[^A-Za-z0-9_])block *\\(([^)]*)\\)");
  if (!Clause.match(K->Mark->Clauses, &M))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  M[2].split(Parts, ',');
  Dim3 B = {1, 1, 1};
  for (size_t D = 0; D < Parts.size(); ++D)
    if (D >= 3 || !llvm::to_integer(Parts[D].trim(), B[D], 10))
      return illegalAt(Kernel.getLocation(), Ctx,
                       "the block(...) of the kernel's mark is not made of "
                       "integer literals");
  return B;
}

llvm::Expected<Dim3> optiml::kernelBlock(const FunctionDecl &Kernel,
                                         ASTContext &Ctx) {
  KernelLaunches Launches(Ctx, Kernel);
  if (const Expr *Use = Launches.addressUse())
    return illegalAt(Use->getBeginLoc(), Ctx,
                     "the address of '" + Kernel.getName() +
                         "' is taken, so its launches are out of reach");
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
    Found = **Mark;
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
