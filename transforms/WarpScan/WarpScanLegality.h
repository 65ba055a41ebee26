//===- WarpScanLegality.h - may a block scan become shuffles? ---*- C++ -*-===//
//
// The naive block scan (Hillis and Steele, as GPU Gems 3 ch. 39 first writes
// it) adds, at offsets 1, 2, 4, ... below blockDim.x, each thread's element
// to the one `offset` places before it, double-buffered in shared memory:
//
//   for (int offset = 1; offset < blockDim.x; offset *= 2) {
//     pout = 1 - pout;
//     pin = 1 - pout;
//     if (t >= offset)
//       temp[pout * n + t] = temp[pin * n + t] + temp[pin * n + t - offset];
//     else
//       temp[pout * n + t] = temp[pin * n + t];
//     __syncthreads();
//   }
//
// Afterwards temp[pout * n + t] holds the inclusive prefix sum of the
// elements the threads held when the loop began. Warps can compute the same
// sums with __shfl_up_sync and one exchange of warp totals. The rewrite is
// exact up to the order of the additions when:
//   * the loop is this one: a counter from 1 doubling while below
//     blockDim.x (or the constant every launch's block has in x); a body of
//     updates of integer locals (the buffer choice), then the step, where
//     the two halves are `P * n + t` and `Q * n + t` with `Q = 1 - P` set
//     after P's last update (so they never meet) and n is blockDim.x, or a
//     constant at least the block's x; then a barrier;
//   * t is threadIdx.x (or a local that holds it), the array is __shared__
//     of a type shuffles carry (int, unsigned, long long, float, double);
//   * every thread of the block reaches the loop together, and the block
//     is (x, 1, 1) with x a multiple of 32, so that warps are whole: known
//     from the launches and the mark, or tested at run time with the
//     original loop kept for other blocks;
//   * after the loop, the array is read only in the half the last step
//     wrote (`P * n + ...`, P unchanged), which is all the rewrite fills.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_WARPSCAN_WARPSCANLEGALITY_H
#define OPTIML_TRANSFORMS_WARPSCAN_WARPSCANLEGALITY_H

#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace optiml {

/// A recognized Hillis-Steele block scan, what the rewrite needs.
struct WarpScanPlan {
  const clang::ForStmt *Loop = nullptr;
  const clang::VarDecl *Buffer = nullptr; ///< The __shared__ array.
  /// The first step's read of the thread's own element (`temp[pin * n +
  /// t]`): the value the scan starts from.
  const clang::Expr *OwnRead = nullptr;
  /// The step's store target (`temp[pout * n + t]`): where the scanned
  /// value ends up.
  const clang::Expr *Store = nullptr;
  /// The statements before the step that choose the halves, in order.
  std::vector<const clang::Stmt *> State;
  /// Some launch's block is not known here: the rewrite runs for blocks
  /// (32k, 1, 1), tested at run time, the loop as written for others.
  bool TestBlockAtRunTime = false;
};

class WarpScanLegality {
public:
  /// The run-time test of a block the rewrite suits: whole warps along x.
  static constexpr const char *BlockTest =
      "blockDim.x % 32 == 0 && blockDim.y == 1 && blockDim.z == 1";

  /// The scan at loop site \p S, or a LegalityError: NotApplicable when the
  /// loop is not such a scan, Illegal when rewriting it could change what
  /// the kernel computes.
  static llvm::Expected<WarpScanPlan> check(const Site &S,
                                            clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_WARPSCAN_WARPSCANLEGALITY_H
