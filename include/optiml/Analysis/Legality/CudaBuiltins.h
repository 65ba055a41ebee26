//===- CudaBuiltins.h - threadIdx, blockIdx, barriers -----------*- C++ -*-===//
//
// Clang spells `threadIdx.x` as an MS-property read wrapped in a
// PseudoObjectExpr, not as a member access; the analyses that reason about
// thread geometry recognize it here, once.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_CUDABUILTINS_H
#define OPTIML_ANALYSIS_LEGALITY_CUDABUILTINS_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// One component of a CUDA built-in index variable, e.g. blockDim.y.
struct BuiltinRef {
  enum Var { ThreadIdx, BlockIdx, BlockDim, GridDim };
  Var Which;
  unsigned Dim; ///< 0 for x, 1 for y, 2 for z.

  /// "threadIdx.x", as the user wrote it.
  std::string str() const;
};

/// \p E (parentheses and implicit casts aside) as a built-in variable's
/// component, or nothing.
std::optional<BuiltinRef> asBuiltinRef(const clang::Expr *E);

/// The node that spells a built-in component (the PseudoObjectExpr), so
/// that walks can treat it as one leaf.
bool isBuiltinRefNode(const clang::Stmt *S);

/// Calls \p F on \p S and every statement below it, in source order, a
/// built-in component (`blockIdx.y`) being one leaf and a pseudo-object
/// seen through its syntactic form.
void forEachNode(const clang::Stmt *S,
                 llvm::function_ref<void(const clang::Stmt *)> F);

/// Every node of type \p NodeT at or below \p S, in source order.
template <typename NodeT>
std::vector<const NodeT *> nodesOf(const clang::Stmt *S) {
  std::vector<const NodeT *> Out;
  forEachNode(S, [&](const clang::Stmt *N) {
    if (const auto *M = llvm::dyn_cast<NodeT>(N))
      Out.push_back(M);
  });
  return Out;
}

/// Whether \p S is `__syncthreads();`, a statement of its own (null: no).
bool isBlockBarrier(const clang::Stmt *S);

/// A call that synchronizes or exchanges data between the threads of a
/// block or warp (__syncthreads, __shfl_*_sync, __ballot_sync, ...): code
/// with one assumes how threads are grouped.
bool isCooperativeCall(const clang::CallExpr &Call);

/// A CUDA load intrinsic (__ldg, __ldcg, ...): it takes a pointer to const
/// and only loads through it.
bool isLoadIntrinsic(const clang::CallExpr &Call);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_CUDABUILTINS_H
