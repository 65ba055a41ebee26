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
//   * warp 0 is threads 0..31 of x and all of them get there: the block is
//     (x, 1, 1) with x a power of two >= 64, and every thread that starts
//     the kernel reaches the loop, or none of the block does (conditions
//     and returns before it are block-uniform). Where every launch in the
//     file has a constant block the launches show it; where some launch's
//     block is not known here the rewrite tests blockDim at run time and
//     keeps the original tree for other blocks;
//   * nothing reads the array after the loop except buf[0] until each
//     thread has stored its own element again, since the other elements
//     no longer hold the tree's partial results;
//   * a tree that carries each thread's partial in a register as well
//     (`buf[t] = v = v + buf[t + s]`) reads that register after the loop
//     in thread 0 only.
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
  /// The register that carries the thread's partial beside buf[t] in
  /// `buf[t] = v = v OP buf[t + s]`, or null.
  const clang::VarDecl *Carried = nullptr;
  /// The first stride when it is a constant; none for blockDim.x / 2.
  std::optional<uint64_t> Start;
  /// Some launch's block is unknown here (not a constant, launched through
  /// its address or from another file): the warp step runs only for
  /// blocks it suits, checked at run time.
  bool TestBlockAtRunTime = false;
};

/// The blocks a tree rewrite suits, for its refusals.
struct TreeShape {
  llvm::StringRef Transform; ///< "warp-reduce".
  llvm::StringRef Leftovers; ///< What changes the other elements.
  llvm::StringRef Missing;   ///< What goes wrong without the whole block.
  uint64_t MinX;             ///< The narrowest block (x, 1, 1).
  bool Shuffles;             ///< Elements travel by __shfl_down_sync.
};

/// The shapes of warp-reduce and sequential-reduce.
extern const TreeShape WarpShape;
extern const TreeShape SequentialShape;

/// The run-time test, one answer for the whole block, that the block is
/// one \p Shape's rewrite of \p R is exact for (warp 0 is threads 0..31
/// of x; a tree from blockDim.x / 2 halves through 64 and 32; a halving
/// tree covers the interleaved one's elements).
std::string blockTest(const TreeReduction &R, const TreeShape &Shape);

class WarpReduceLegality {
public:
  /// The tree reduction at \p Loop (site \p Site of \p Kernel), or why it
  /// may not end in warp shuffles: NotApplicable when the loop is not such a
  /// tree, Illegal when rewriting it could change what the kernel computes.
  static llvm::Expected<TreeReduction>
  analyze(const clang::Stmt &Loop, llvm::StringRef Site,
          const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

  /// The same for an interleaved tree, which sequential-reduce turns into
  /// the halving one:
  ///
  ///   for (int s = 1; s < blockDim.x; s *= 2) {
  ///     if (t % (2 * s) == 0)            // or (t & (2 * s - 1)) == 0
  ///       buf[t] += buf[t + s];
  ///     __syncthreads();
  ///   }
  ///
  /// Both sum buf[0, blockDim.x) into buf[0] when blockDim.x is a power of
  /// two, in another order; nothing may read the other elements after it.
  static llvm::Expected<TreeReduction>
  analyzeInterleaved(const clang::Stmt &Loop, llvm::StringRef Site,
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
                                 const TreeReduction &R, const TreeShape &Shape,
                                 clang::ASTContext &Ctx);
  static llvm::Error checkUse(const clang::DeclRefExpr &Use,
                              const TreeReduction &R, const TreeShape &Shape,
                              clang::SourceLocation Restored,
                              clang::ASTContext &Ctx);
  static llvm::Error checkCarried(const clang::FunctionDecl &Kernel,
                                  const TreeReduction &R,
                                  const TreeShape &Shape,
                                  clang::ASTContext &Ctx);
  static llvm::Error checkPlacement(const clang::FunctionDecl &Kernel,
                                    const TreeReduction &R,
                                    const TreeShape &Shape,
                                    clang::ASTContext &Ctx);
  /// The checks after the loop's shape: the array, a carried register,
  /// the placement, the launches and, with a run-time test, the fallback.
  static llvm::Error checkTree(const clang::FunctionDecl &Kernel,
                               const TreeShape &Shape, TreeReduction &R,
                               clang::ASTContext &Ctx);
  static llvm::Error checkFallback(const TreeShape &Shape,
                                   const TreeReduction &R,
                                   clang::ASTContext &Ctx);
  static llvm::Error checkLaunches(const clang::FunctionDecl &Kernel,
                                   const TreeShape &Shape, TreeReduction &R,
                                   clang::ASTContext &Ctx);
  static llvm::Error matchInterleaved(const clang::ForStmt &For,
                                      const clang::FunctionDecl &Kernel,
                                      llvm::StringRef Site, TreeReduction &R,
                                      clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_WARPREDUCE_WARPREDUCELEGALITY_H
