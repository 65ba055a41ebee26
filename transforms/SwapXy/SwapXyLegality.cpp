//===- SwapXyLegality.cpp - when the rewrite may run ----------------------===//

#include "transforms/SwapXy/SwapXyLegality.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/LegalityError.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace optiml;
using namespace clang;

/// threadIdx and blockDim in x or y: the components the swap renames.
static bool isSwapped(const BuiltinRef &R) {
  return (R.Which == BuiltinRef::ThreadIdx ||
          R.Which == BuiltinRef::BlockDim) &&
         R.Dim < 2;
}

/// Calls whose result depends on which threads share a warp. Block-wide
/// barriers (__syncthreads) do not: every thread of the block takes part.
static bool isWarpLevel(const CallExpr &Call) {
  const FunctionDecl *F = Call.getDirectCallee();
  if (!F || !F->getIdentifier() || !isCooperativeCall(Call))
    return false;
  return !F->getName().starts_with("__syncthreads") &&
         !F->getName().starts_with("__barrier");
}

/// Why the code of \p Body depends on how threads form warps, or reads the
/// thread geometry where the swap cannot rename it; success otherwise.
/// \p InKernel: the kernel's own body (a callee may not read threadIdx).
static llvm::Error checkBody(const Stmt *Body, bool InKernel,
                             llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen,
                             ASTContext &Ctx);

static llvm::Error
checkCallee(const CallExpr &Call,
            llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen,
            ASTContext &Ctx) {
  const FunctionDecl *F = Call.getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || !Def || !Seen.insert(Def).second)
    return llvm::Error::success();
  // A helper outside the main file (a CUDA header's) does not read the
  // thread geometry in any way the rule cares about.
  if (!Ctx.getSourceManager().isInMainFile(Def->getLocation()))
    return llvm::Error::success();
  if (llvm::Error E =
          checkBody(Def->getBody(), /*InKernel=*/false, Seen, Ctx)) {
    llvm::consumeError(std::move(E));
    return illegalAt(Call.getBeginLoc(), Ctx,
                     "the kernel calls '" + Def->getNameAsString() +
                         "', which reads the thread geometry or works per "
                         "warp; the swap renames threadIdx and blockDim in "
                         "the kernel only");
  }
  return llvm::Error::success();
}

/// A volatile __shared__ array or a pointer to volatile: how warp-
/// synchronous reductions (no barrier within a warp) are written.
static bool isVolatileView(const VarDecl &V) {
  QualType T = V.getType();
  if (const auto *P = T->getAs<PointerType>())
    return P->getPointeeType().isVolatileQualified();
  return V.hasAttr<CUDASharedAttr>() &&
         V.getASTContext().getBaseElementType(T).isVolatileQualified();
}

static llvm::Error checkNode(const Stmt *N, bool InKernel,
                             llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen,
                             ASTContext &Ctx) {
  if (const auto *E = llvm::dyn_cast<Expr>(N)) {
    if (std::optional<BuiltinRef> R = asBuiltinRef(E); R && isSwapped(*R)) {
      if (!InKernel)
        return illegalAt(E->getBeginLoc(), Ctx, R->str() + " in a callee");
      if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID())
        return illegalAt(E->getBeginLoc(), Ctx,
                         R->str() + " comes from a macro, whose text the "
                                    "swap cannot rename at one use");
    }
  }
  if (const auto *Call = llvm::dyn_cast<CallExpr>(N)) {
    if (isWarpLevel(*Call))
      return illegalAt(Call->getBeginLoc(), Ctx,
                       "the kernel calls '" +
                           Call->getDirectCallee()->getNameAsString() +
                           "': warp-level code assumes which threads share "
                           "a warp, and the swap regroups them");
    if (llvm::Error E = checkCallee(*Call, Seen, Ctx))
      return E;
  }
  if (const auto *Ref = llvm::dyn_cast<DeclRefExpr>(N))
    if (Ref->getDecl()->getName() == "warpSize")
      return illegalAt(Ref->getBeginLoc(), Ctx,
                       "the kernel reads warpSize: it reasons about warps, "
                       "which the swap regroups");
  if (llvm::isa<AsmStmt>(N))
    return illegalAt(N->getBeginLoc(), Ctx,
                     "inline assembly may read the thread index (%tid) "
                     "that the swap renames");
  if (const auto *DS = llvm::dyn_cast<DeclStmt>(N))
    for (const Decl *D : DS->decls())
      if (const auto *V = llvm::dyn_cast<VarDecl>(D); V && isVolatileView(*V))
        return illegalAt(V->getLocation(), Ctx,
                         "volatile '" + V->getNameAsString() +
                             "' is the mark of warp-synchronous code, which "
                             "assumes which threads share a warp");
  return llvm::Error::success();
}

static llvm::Error checkBody(const Stmt *Body, bool InKernel,
                             llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen,
                             ASTContext &Ctx) {
  llvm::Error First = llvm::Error::success();
  bool Failed = false;
  forEachNode(Body, [&](const Stmt *N) {
    if (Failed)
      return;
    if (llvm::Error E = checkNode(N, InKernel, Seen, Ctx)) {
      llvm::consumeError(std::move(First));
      First = std::move(E);
      Failed = true;
    }
  });
  return First;
}

/// The block every launch uses, with more than one thread in x and in y.
static llvm::Expected<Dim3> regroupableBlock(const FunctionDecl &K,
                                             ASTContext &Ctx) {
  auto Block = kernelBlock(K, Ctx);
  if (!Block)
    return Block.takeError();
  if ((*Block)[0] < 2 || (*Block)[1] < 2)
    return notApplicableAt(
        K.getLocation(), Ctx,
        "the block (" + std::to_string((*Block)[0]) + ", " +
            std::to_string((*Block)[1]) + ", " + std::to_string((*Block)[2]) +
            ") has one thread in x or y: swapping them regroups no warp");
  return *Block;
}

llvm::Expected<SwapXyPlan>
SwapXyLegality::check(const Site &S, const ParamValues &, ASTContext &Ctx) {
  const FunctionDecl &K = *S.Kernel;
  if (!K.hasBody())
    return notApplicableAt(K.getLocation(), Ctx, "the kernel has no body");
  SwapXyPlan Plan;
  Plan.Kernel = &K;
  auto Block = regroupableBlock(K, Ctx);
  if (!Block)
    return Block.takeError();
  Plan.Block = *Block;
  auto Launches = launchesInReach(K, "its block", Ctx);
  if (!Launches)
    return Launches.takeError();
  Plan.Launches = std::move(*Launches);
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  Seen.insert(&K);
  if (llvm::Error E = checkBody(K.getBody(), /*InKernel=*/true, Seen, Ctx))
    return E;
  forEachNode(K.getBody(), [&](const Stmt *N) {
    if (const auto *E = llvm::dyn_cast<Expr>(N))
      if (std::optional<BuiltinRef> R = asBuiltinRef(E); R && isSwapped(*R))
        Plan.Renamed.push_back(E);
  });
  if (Plan.Renamed.empty())
    return notApplicableAt(K.getLocation(), Ctx,
                           "the kernel reads neither threadIdx nor blockDim "
                           "in x or y");
  return Plan;
}
