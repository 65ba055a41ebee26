//===- DistinctBuffers.cpp - do a kernel's buffers overlap? --------------===//

#include "optiml/Analysis/Legality/DistinctBuffers.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Analysis/Legality/BoundsGuard.h"
#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/MarkClause.h"
#include "optiml/Analysis/Legality/ThreadGeometry.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/Basic/SourceManager.h"

#include <map>
#include <set>

using namespace optiml;
using namespace clang;

namespace {

/// A pointer argument as `Base + Slot * Unit`: `p` (slot 0), `p + n`
/// (slot 1), `p + 2 * n` (slot 2).
struct Part {
  const ParmVarDecl *Param = nullptr;
  const VarDecl *Base = nullptr;
  int64_t Slot = 0;
  const VarDecl *Unit = nullptr; ///< Null for slot 0.
};

/// \p Offset as `Slot * Unit`: `n`, `2 * n`, `n * 2`.
bool readOffset(const Expr *Offset, Part &P, ASTContext &Ctx) {
  if ((P.Unit = referencedVar(Offset))) {
    P.Slot = 1;
    return true;
  }
  const auto *Mul = dyn_cast<BinaryOperator>(Offset->IgnoreParenImpCasts());
  if (!Mul || Mul->getOpcode() != BO_Mul)
    return false;
  for (auto [C, V] : {std::pair{Mul->getLHS(), Mul->getRHS()},
                      std::pair{Mul->getRHS(), Mul->getLHS()}}) {
    std::optional<llvm::APSInt> K = C->getIntegerConstantExpr(Ctx);
    if (K && K->isStrictlyPositive() && (P.Unit = referencedVar(V))) {
      P.Slot = K->getExtValue();
      return true;
    }
  }
  return false;
}

/// \p Arg as a part of a variable, or nothing.
std::optional<Part> partOf(const ParmVarDecl &Param, const Expr *Arg,
                           ASTContext &Ctx) {
  Part P;
  P.Param = &Param;
  if ((P.Base = referencedVar(Arg)))
    return P;
  const auto *Add = dyn_cast<BinaryOperator>(Arg->IgnoreParenImpCasts());
  if (!Add || Add->getOpcode() != BO_Add)
    return std::nullopt;
  const Expr *Ptr = Add->getLHS(), *Offset = Add->getRHS();
  if (!Ptr->getType()->isPointerType())
    std::swap(Ptr, Offset);
  if (!(P.Base = referencedVar(Ptr)) || !readOffset(Offset, P, Ctx))
    return std::nullopt;
  return P;
}

/// Whether \p Cond has a conjunct `V < Bound` (or `Bound > V`).
bool testsBelow(const Expr *Cond, const VarDecl &V, const VarDecl &Bound) {
  bool Found = false;
  forEachLeaf(Cond, BO_LAnd, [&](const Expr *Leaf) {
    const auto *B = dyn_cast<BinaryOperator>(Leaf);
    Found |=
        B && ((B->getOpcode() == BO_LT && referencedVar(B->getLHS()) == &V &&
               referencedVar(B->getRHS()) == &Bound) ||
              (B->getOpcode() == BO_GT && referencedVar(B->getRHS()) == &V &&
               referencedVar(B->getLHS()) == &Bound));
  });
  return Found;
}

/// Whether the index \p Index of an access at \p Use lies in [0, Bound):
/// a global index variable (never negative, never changed) under `if (i <
/// Bound)`, or the counter of a loop `for (j = c; j < Bound; ++j)` with
/// c >= 0 (which its body only reads).
bool isBelow(const Expr &Index, const DeclRefExpr &Use, const VarDecl &Bound,
             const FunctionDecl &Kernel, const ThreadGeometry &G,
             ASTContext &Ctx) {
  const VarDecl *V = referencedVar(&Index);
  const SourceManager &SM = Ctx.getSourceManager();
  auto Within = [&](const Stmt *S) { return spans(S, Use.getBeginLoc(), SM); };
  if (!V)
    return false;
  for (const Stmt *S : enclosingStmts(Use, Ctx)) {
    if (const auto *If = dyn_cast<IfStmt>(S);
        If && llvm::is_contained(G.IndexVars, V) &&
        isNeverChanged(*V, Kernel, Ctx) && Within(If->getThen()) &&
        testsBelow(If->getCond(), *V, Bound))
      return true;
    const auto *For = dyn_cast<ForStmt>(S);
    if (!For || !Within(For->getBody()))
      continue;
    auto L = analyzeLoop(*For, Ctx);
    if (!L) {
      llvm::consumeError(L.takeError());
      continue;
    }
    std::optional<llvm::APSInt> Lower = L->Lower->getIntegerConstantExpr(Ctx);
    if (L->IV == V && L->Step > 0 && L->Cmp == BO_LT && Lower &&
        !Lower->isNegative() && referencedVar(L->Bound) == &Bound)
      return true;
  }
  return false;
}

/// Whether every use of \p P in \p Kernel is an element `P[i]` with i in
/// [0, Bound), and neither \p Bound (a parameter) nor \p P changes.
bool accessesBelow(const ParmVarDecl &P, const VarDecl &Bound,
                   const FunctionDecl &Kernel, ASTContext &Ctx) {
  if (!isNeverChanged(Bound, Kernel, Ctx) || !isNeverChanged(P, Kernel, Ctx))
    return false;
  ThreadGeometry G = ThreadGeometry::of(Kernel, Ctx);
  for (const DeclRefExpr *Use : usesOf(P, *Kernel.getBody(), Ctx)) {
    DynTypedNode Decay = parentOf(DynTypedNode::create(*Use), Ctx);
    const auto *Sub = parentOf(Decay, Ctx).get<ArraySubscriptExpr>();
    const VarDecl *I = Sub ? referencedVar(Sub->getIdx()) : nullptr;
    if (!Sub || Sub->getBase() != Decay.get<Expr>() || !I ||
        !isBelow(*Sub->getIdx(), *Use, Bound, Kernel, G, Ctx))
      return false;
  }
  return true;
}

/// Parts of one variable at distinct slots of one unit, each parameter
/// read only below the kernel parameter that receives the unit: the
/// parameters cannot overlap (`p, p + n, p + 2 * n` for x, y, z arrays
/// of n elements each).
bool areDisjoint(llvm::ArrayRef<Part> Parts, const FunctionDecl &Kernel,
                 llvm::ArrayRef<const Expr *> Args, ASTContext &Ctx) {
  const VarDecl *Unit = nullptr;
  std::set<int64_t> Slots;
  for (const Part &P : Parts) {
    if (P.Unit && Unit && P.Unit != Unit)
      return false;
    Unit = P.Unit ? P.Unit : Unit;
    if (!Slots.insert(P.Slot).second)
      return false;
  }
  const ParmVarDecl *Bound = nullptr;
  unsigned N = std::min<unsigned>(Args.size(), Kernel.getNumParams());
  for (unsigned I = 0; I < N && !Bound; ++I)
    if (Kernel.getParamDecl(I)->getType()->isIntegerType() &&
        referencedVar(Args[I]) == Unit)
      Bound = Kernel.getParamDecl(I);
  return Unit && Bound && llvm::all_of(Parts, [&](const Part &P) {
           return accessesBelow(*P.Param, *Bound, Kernel, Ctx);
         });
}

} // namespace

/// Success when a launch whose arguments are \p Args passes a distinct
/// variable (or null) for each of \p Kernel's pointer parameters, or
/// disjoint parts of one (areDisjoint).
static llvm::Error checkLaunch(const FunctionDecl &Kernel,
                               llvm::ArrayRef<const Expr *> Args,
                               ASTContext &Ctx) {
  std::map<const VarDecl *, std::vector<Part>> ByBase;
  unsigned N = std::min<unsigned>(Args.size(), Kernel.getNumParams());
  for (unsigned I = 0; I < N; ++I) {
    const ParmVarDecl *P = Kernel.getParamDecl(I);
    if (!P->getType()->isPointerType())
      continue;
    const Expr *Arg = Args[I]->IgnoreParenImpCasts();
    if (Arg->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      continue;
    std::optional<Part> Of = partOf(*P, Arg, Ctx);
    if (!Of)
      return illegalAt(Arg->getBeginLoc(), Ctx,
                       "this launch passes '" +
                           textOf(Arg->getSourceRange(), Ctx) + "' for '" +
                           P->getName() +
                           "', not a variable of its own or a part of one "
                           "('p + 2 * n'), so it may overlap another buffer");
    ByBase[Of->Base].push_back(*Of);
  }
  for (const auto &[Base, Parts] : ByBase) {
    if (Parts.size() < 2)
      continue;
    const Part &Second = Parts[1];
    if (Parts[0].Slot == 0 && Second.Slot == 0)
      return illegalAt(
          Args[Second.Param->getFunctionScopeIndex()]->getBeginLoc(), Ctx,
          "this launch passes '" + Base->getName() + "' for both '" +
              Parts[0].Param->getName() + "' and '" + Second.Param->getName() +
              "'");
    if (areDisjoint(Parts, Kernel, Args, Ctx))
      continue;
    return illegalAt(
        Args[Second.Param->getFunctionScopeIndex()]->getBeginLoc(), Ctx,
        "this launch passes parts of '" + Base->getName() + "' for both '" +
            Parts[0].Param->getName() + "' and '" + Second.Param->getName() +
            "', and the kernel's accesses are not all below "
            "the size that separates them");
  }
  return llvm::Error::success();
}

/// The mark's `alias(out = in)`: the spec runs the kernel with one buffer
/// in two parameters, as the program does.
static llvm::Error checkMarkAliases(const FunctionDecl &Kernel,
                                    ASTContext &Ctx) {
  std::optional<KernelMark> Mark = KernelFinder::markOf(Kernel, Ctx);
  if (!Mark)
    return llvm::Error::success();
  auto Aliases = markClauseArgs(Mark->Clauses, "alias");
  if (!Aliases || Aliases->empty())
    return llvm::Error::success();
  auto [Param, Buffer] = llvm::StringRef(Aliases->front()).split('=');
  return llvm::make_error<LegalityError>(
      ErrorKind::Illegal, Mark->Pos,
      "the kernel's mark passes '" + Buffer.trim().str() + "' as '" +
          Param.trim().str() + "' too (alias(" + Aliases->front() + "))");
}

llvm::Error optiml::checkDistinctBuffers(const FunctionDecl &Kernel,
                                         ASTContext &Ctx) {
  if (llvm::Error E = checkMarkAliases(Kernel, Ctx))
    return E;
  KernelLaunches Launches(Ctx, Kernel);
  if (const Expr *Use = Launches.opaqueUse())
    return illegalAt(Use->getBeginLoc(), Ctx,
                     "the address of '" + Kernel.getName() +
                         "' is taken, so its arguments are out of reach");
  BufferAccess Access(Kernel, Ctx);
  if (const Expr *Cross = Access.crossAssignment())
    return illegalAt(Cross->getBeginLoc(), Ctx,
                     "a pointer parameter is assigned a pointer based on "
                     "another parameter, so the two alias");
  for (const CUDAKernelCallExpr *Call : Launches.calls())
    if (llvm::Error E = checkLaunch(
            Kernel, llvm::ArrayRef(Call->getArgs(), Call->getNumArgs()), Ctx))
      return E;
  for (const ArgumentArrayLaunch &L : Launches.argumentArrayLaunches())
    if (llvm::Error E = checkLaunch(Kernel, L.Args, Ctx))
      return E;
  return llvm::Error::success();
}
