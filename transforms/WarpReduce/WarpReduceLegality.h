//===- WarpReduceLegality.h - may a tree end in shuffles? -------*- C++ -*-===//
//
// A shared-memory tree reduction
//
//   for (int s = blockDim.x / 2; s > 0; s /= 2) {
//     if (threadIdx.x < s)
//       buf[threadIdx.x] += buf[threadIdx.x + s];
//     __syncthreads();
//   }
//
// spends its last five steps, strides 16 down to 1, with one warp active
// and a block-wide barrier after each. Warp 0 can finish them in registers
// with __shfl_down_sync, pairing the same elements in the same order, so
// buf[0] ends up bitwise the same. That holds when:
//   * the loop is exactly this halving tree, starting at a power of two
//     of at least 32, on a __shared__ array of a type shuffles carry;
//   * warp 0 is threads 0..31 of x and all of them get there: every launch
//     (and the spec's block(...)) has a constant block (x, 1, 1) with x a
//     power of two >= 64, the kernel's address is not taken, and the loop is
//     not under a condition or after a return;
//   * nothing reads the array after the loop except buf[0], since the
//     other elements no longer hold the tree's partial results.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_WARPREDUCE_WARPREDUCELEGALITY_H
#define OPTIML_TRANSFORMS_WARPREDUCE_WARPREDUCELEGALITY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace optiml {

/// How one tree step combines a thread's element with its partner's.
struct ReduceOp {
  enum Form {
    Compound, ///< `own OP= other`.
    Binary,   ///< `own = a OP b`.
    Call,     ///< `own = f(a, b)` (max, min, fmaxf, fminf, fmax, fmin).
  };
  Form How = Compound;
  std::string Spelling; ///< The operator ("+") or the callee as written.
  bool OwnFirst = true; ///< The thread's own element is the left operand.

  /// The combination of \p Own and \p Other, in the tree's operand order.
  std::string combine(llvm::StringRef Own, llvm::StringRef Other) const;
};

/// A recognized tree reduction loop.
struct TreeReduction {
  const clang::ForStmt *Loop = nullptr;
  const clang::VarDecl *Stride = nullptr; ///< The loop variable.
  const clang::VarDecl *Buffer = nullptr; ///< The __shared__ array.
  /// The thread's index as used in `buf[t]`: threadIdx.x or a variable
  /// holding it.
  const clang::Expr *Thread = nullptr;
  ReduceOp Op;
  /// The first stride when it is a constant; none for blockDim.x / 2.
  std::optional<uint64_t> Start;
  /// The kernel is not launched in this file; its block comes from the
  /// spec's block(...) alone.
  bool BlockFromMark = false;
};

class WarpReduceLegality {
public:
  /// The tree reduction at \p Loop (site \p Site of \p Kernel), or why it
  /// may not end in warp shuffles: NotApplicable when the loop is not such a
  /// tree, Illegal when rewriting it could change what the kernel computes.
  static llvm::Expected<TreeReduction>
  analyze(const clang::Stmt &Loop, llvm::StringRef Site,
          const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

private:
  static llvm::Error matchHeader(const clang::ForStmt &For,
                                 llvm::StringRef Site, TreeReduction &R,
                                 clang::ASTContext &Ctx);
  static llvm::Error matchBody(const clang::ForStmt &For,
                               const clang::FunctionDecl &Kernel,
                               llvm::StringRef Site, TreeReduction &R,
                               clang::ASTContext &Ctx);
  static llvm::Error matchStep(const clang::Stmt &Update, TreeReduction &R,
                               clang::ASTContext &Ctx);
  static llvm::Error checkBuffer(const clang::FunctionDecl &Kernel,
                                 const TreeReduction &R,
                                 clang::ASTContext &Ctx);
  static llvm::Error checkUse(const clang::DeclRefExpr &Use,
                              const TreeReduction &R, clang::ASTContext &Ctx);
  static llvm::Error checkPlacement(const clang::FunctionDecl &Kernel,
                                    const TreeReduction &R,
                                    clang::ASTContext &Ctx);
  static llvm::Error checkLaunches(const clang::FunctionDecl &Kernel,
                                   TreeReduction &R, clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_WARPREDUCE_WARPREDUCELEGALITY_H
