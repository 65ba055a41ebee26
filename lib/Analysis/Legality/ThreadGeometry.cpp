//===- ThreadGeometry.cpp - how a kernel maps threads to work ------------===//

#include "optiml/Analysis/Legality/ThreadGeometry.h"
#include "optiml/Analysis/Legality/BoundsGuard.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace optiml;
using namespace clang;

namespace {

/// The nodes of a body that matter here, collected in one walk that treats
/// each built-in component as a leaf.
struct BodyNodes {
  std::vector<const PseudoObjectExpr *> Builtins;
  std::vector<const BinaryOperator *> Products, Sums;
  std::vector<const CallExpr *> Calls;

  void walk(const Stmt *S) {
    if (!S)
      return;
    if (isBuiltinRefNode(S)) {
      Builtins.push_back(cast<PseudoObjectExpr>(S));
      return;
    }
    if (const auto *P = dyn_cast<PseudoObjectExpr>(S))
      return walk(P->getSyntacticForm());
    if (const auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->getOpcode() == BO_Mul)
        Products.push_back(B);
      if (B->getOpcode() == BO_Add)
        Sums.push_back(B);
    }
    if (const auto *C = dyn_cast<CallExpr>(S))
      Calls.push_back(C);
    for (const Stmt *Child : S->children())
      walk(Child);
  }
};

/// `(size_t)blockIdx.x` is blockIdx.x, widened.
const Expr *withoutIntegerCasts(const Expr *E) {
  return withoutValueCasts(E, /*IntegersOnly=*/true);
}

const PseudoObjectExpr *builtinNode(const Expr *E, BuiltinRef::Var Which,
                                    int Dim = -1) {
  E = withoutIntegerCasts(E);
  std::optional<BuiltinRef> R = asBuiltinRef(E);
  if (!R || R->Which != Which || (Dim >= 0 && R->Dim != unsigned(Dim)))
    return nullptr;
  return cast<PseudoObjectExpr>(E);
}

/// For `A * B` with A and B the components \p X and \p Y (either order) of
/// one dimension: the two nodes and the dimension.
bool matchProduct(const Expr *E, BuiltinRef::Var X, BuiltinRef::Var Y,
                  const PseudoObjectExpr *Out[2], unsigned &Dim) {
  const auto *M = dyn_cast<BinaryOperator>(withoutIntegerCasts(E));
  if (!M || M->getOpcode() != BO_Mul)
    return false;
  for (int Swap = 0; Swap < 2; ++Swap) {
    const Expr *L = Swap ? M->getRHS() : M->getLHS();
    const Expr *R = Swap ? M->getLHS() : M->getRHS();
    std::optional<BuiltinRef> LR = asBuiltinRef(withoutIntegerCasts(L));
    if (!LR || LR->Which != X)
      continue;
    if (const PseudoObjectExpr *RN = builtinNode(R, Y, LR->Dim)) {
      Out[0] = builtinNode(L, X), Out[1] = RN, Dim = LR->Dim;
      return true;
    }
  }
  return false;
}

/// `blockIdx.d * blockDim.d + threadIdx.d` in any operand order.
bool matchGlobalIndex(const BinaryOperator &Sum, const PseudoObjectExpr *Out[3],
                      unsigned &Dim) {
  for (int Swap = 0; Swap < 2; ++Swap) {
    const Expr *P = Swap ? Sum.getRHS() : Sum.getLHS();
    const Expr *T = Swap ? Sum.getLHS() : Sum.getRHS();
    if (!matchProduct(P, BuiltinRef::BlockIdx, BuiltinRef::BlockDim, Out, Dim))
      continue;
    if ((Out[2] = builtinNode(T, BuiltinRef::ThreadIdx, Dim)))
      return true;
  }
  return false;
}

/// `blockIdx.d * C + threadIdx.d` in any operand order, with C a constant
/// equal to \p Block's extent in d: the block is spelled as a number.
bool matchFixedExtentIndex(const BinaryOperator &Sum,
                           const std::array<uint64_t, 3> &Block,
                           const PseudoObjectExpr *Out[2], const Expr *&Extent,
                           unsigned &Dim, ASTContext &Ctx) {
  for (int Swap = 0; Swap < 2; ++Swap) {
    const auto *M = dyn_cast<BinaryOperator>(
        withoutIntegerCasts(Swap ? Sum.getRHS() : Sum.getLHS()));
    const Expr *T = Swap ? Sum.getLHS() : Sum.getRHS();
    if (!M || M->getOpcode() != BO_Mul)
      continue;
    for (int Order = 0; Order < 2; ++Order) {
      const Expr *B = Order ? M->getRHS() : M->getLHS();
      const Expr *C = Order ? M->getLHS() : M->getRHS();
      std::optional<BuiltinRef> R = asBuiltinRef(withoutIntegerCasts(B));
      std::optional<int64_t> V = LaunchConfig::constant(C, Ctx);
      if (!R || R->Which != BuiltinRef::BlockIdx || !V ||
          *V != int64_t(Block[R->Dim]))
        continue;
      if (!(Out[1] = builtinNode(T, BuiltinRef::ThreadIdx, R->Dim)))
        continue;
      Out[0] = builtinNode(B, BuiltinRef::BlockIdx);
      Extent = C, Dim = R->Dim;
      return true;
    }
  }
  return false;
}

/// The variable \p E initializes, looking through parentheses and casts
/// to integer types (`size_t i = (size_t)(blockIdx.x * ...)`).
const VarDecl *initializedVar(const Expr &E, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(E);
  while (true) {
    DynTypedNode Parent = parentOf(Node, Ctx);
    const auto *Cast = Parent.get<ExplicitCastExpr>();
    if (Parent.get<ImplicitCastExpr>() || Parent.get<ParenExpr>() ||
        (Cast && Cast->getType()->isIntegerType())) {
      Node = Parent;
      continue;
    }
    return Parent.get<VarDecl>();
  }
}

/// Whether \p F (a device function the kernel calls) reads the thread
/// geometry, directly or through its own callees.
bool readsGeometry(const FunctionDecl *F,
                   llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  if (!F || !F->hasBody() || !Seen.insert(F).second)
    return false;
  BodyNodes N;
  N.walk(F->getBody());
  if (!N.Builtins.empty())
    return true;
  return llvm::any_of(N.Calls, [&](const CallExpr *C) {
    return readsGeometry(C->getDirectCallee(), Seen);
  });
}

/// Whether \p V counts a for-loop whose increment steps by the grid's
/// threads in \p Dim.
bool isGridStrideCounter(const VarDecl &V, unsigned Dim, ASTContext &Ctx) {
  DynTypedNode Decl = parentOf(DynTypedNode::create(V), Ctx);
  const ForStmt *Loop =
      Decl.get<DeclStmt>() ? parentOf(Decl, Ctx).get<ForStmt>() : nullptr;
  if (!Loop || !Loop->getInc())
    return false;
  BodyNodes Inc;
  Inc.walk(Loop->getInc());
  return llvm::any_of(Inc.Builtins, [&](const PseudoObjectExpr *B) {
    std::optional<BuiltinRef> R = asBuiltinRef(B);
    return R && R->Which == BuiltinRef::GridDim && R->Dim == Dim;
  });
}

} // namespace

bool optiml::isGridThreadCount(const Expr &E, unsigned Dim) {
  const PseudoObjectExpr *Parts[2];
  unsigned ProductDim;
  return matchProduct(&E, BuiltinRef::BlockDim, BuiltinRef::GridDim, Parts,
                      ProductDim) &&
         ProductDim == Dim;
}

bool ThreadGeometry::guardsEveryIndex(const FunctionDecl &Kernel,
                                      ASTContext &Ctx) const {
  if (IndexVars.empty())
    return false;
  llvm::Error E = BoundsGuard::check(Kernel, IndexVars, Ctx);
  bool Guarded = !E;
  llvm::consumeError(std::move(E));
  return Guarded;
}

ThreadGeometry
ThreadGeometry::of(const FunctionDecl &Kernel, ASTContext &Ctx,
                   std::optional<std::array<uint64_t, 3>> Block) {
  ThreadGeometry G;
  BodyNodes N;
  N.walk(Kernel.getBody());
  llvm::SmallPtrSet<const PseudoObjectExpr *, 16> Covered;
  for (const BinaryOperator *Sum : N.Sums) {
    const PseudoObjectExpr *Parts[3];
    const Expr *Extent = nullptr;
    unsigned Dim;
    if (matchGlobalIndex(*Sum, Parts, Dim))
      Covered.insert(Parts, Parts + 3);
    else if (Block &&
             matchFixedExtentIndex(*Sum, *Block, Parts, Extent, Dim, Ctx)) {
      Covered.insert(Parts, Parts + 2);
      G.FixedExtents.push_back({Extent, Dim});
    } else
      continue;
    if (const VarDecl *V = initializedVar(*Sum, Ctx)) {
      G.IndexVars.push_back(V);
      bool Strides = isGridStrideCounter(*V, Dim, Ctx);
      G.GridStrideDims[Dim] =
          Strides && (!G.IndexDims[Dim] || G.GridStrideDims[Dim]);
    } else {
      G.LooseIndices.push_back(Sum);
      G.GridStrideDims[Dim] = false;
    }
    G.IndexDims[Dim] = true;
  }
  for (const BinaryOperator *Product : N.Products) {
    const PseudoObjectExpr *Parts[2];
    unsigned Dim;
    if (matchProduct(Product, BuiltinRef::BlockDim, BuiltinRef::GridDim, Parts,
                     Dim))
      Covered.insert(Parts, Parts + 2);
  }
  for (const PseudoObjectExpr *B : N.Builtins)
    if (!Covered.contains(B))
      G.Strays.push_back(
          {B, "uses " + asBuiltinRef(B)->str() + " outside a global index"});
  for (const CallExpr *C : N.Calls) {
    llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
    if (readsGeometry(C->getDirectCallee(), Seen))
      G.Strays.push_back({C, "calls '" +
                                 C->getDirectCallee()->getNameAsString() +
                                 "', which reads the thread geometry"});
  }
  return G;
}
