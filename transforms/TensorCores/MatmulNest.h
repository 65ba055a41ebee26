//===- MatmulNest.h - one product element per thread ------------*- C++ -*-===//
//
// The kernels tensor-cores rewrites give each thread one element (x, y) of
// an output, with x and y its global indices in x and y, and compute it as
// one sum over k of a product of two loads:
//
//   int row = blockIdx.y * blockDim.y + threadIdx.y;      // y
//   int col = blockIdx.x * blockDim.x + threadIdx.x;      // x
//   if (row >= m || col >= n) return;
//   float acc = 0.0f;                                     // or C[...] *= beta
//   for (int i = 0; i < k; ++i)
//     acc += A[row * k + i] * B[i * n + col];             // (alpha * ...)
//   C[row * n + col] = acc;                               // any epilogue
//
// A matrix product in disguise: the load that follows y is the left
// operand (its rows are y), the one that follows x the right (its columns
// are x), whatever their layouts (which the index polynomials tell, never
// the names). The rest of the body is the element's epilogue, which the
// rewrite keeps as written and runs once per element with the sum given.
//
// MatmulNest recognizes that shape, refusing (NotApplicable or Illegal,
// with the place and the rule) whatever the rewrite could not keep:
//   * the site is a canonical for-loop `for (i = L; i < U; ++i)` (or <=)
//     with L and U the same for every thread (parameters and constants),
//     not nested in another loop, without a loop pragma, its index not
//     used after it;
//   * its body is one accumulation `s += f * ... * P[..] * Q[..]` (or
//     `s = s + ...`) into a local float or the output element: exactly two
//     factors read memory at an index that moves with i, one following y
//     and not x, the other x and not y; the other factors neither read
//     memory nor change in the loop (sum f*a*b = f * sum a*b);
//   * the thread's coordinates are two variables initialized with
//     blockIdx.d * blockDim.d + threadIdx.d (x and y), never changed; the
//     kernel reads no other thread geometry (no z, no gridDim, no
//     threadIdx elsewhere), shares nothing between threads, and guards both
//     coordinates before it touches memory (BoundsGuard);
//   * the guards where the loop runs bound each coordinate from above, on
//     its own or as `v <= w + c` through the other's bound, in parameters
//     and constants; those on one coordinate become its loads' bounds;
//   * the loads' indices read only their coordinate, i and parameters;
//   * the kernel writes one buffer, at one index affine in x and y (the
//     output element), and reads it only there; the two inputs are other
//     buffers, never written (BufferAccess), and no launch passes the
//     output's memory as an input: their tiles are read before any output
//     is written;
//   * every return is a top-level `if (...) return;` (it becomes
//     `continue` in the per-element epilogue).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_TENSORCORES_MATMULNEST_H
#define OPTIML_TRANSFORMS_TENSORCORES_MATMULNEST_H

#include "optiml/Analysis/Legality/LoopInfo.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace optiml {

/// One input of the product, as its tile is loaded.
struct MatmulOperand {
  const clang::ArraySubscriptExpr *Load = nullptr; ///< `A[row * k + i]`.
  /// The output coordinate the operand's rows (left) or columns (right)
  /// follow.
  const clang::VarDecl *Coord = nullptr;
  /// Whether consecutive i are adjacent in memory; otherwise consecutive
  /// values of Coord are (or neither, which loads like this).
  bool KContiguous = true;
  /// The element type as the rewrite spells it: "float", "__half" or
  /// "__nv_bfloat16"; empty for any other.
  std::string ElemType;
  /// When an element may be loaded, besides i's bound: the guard terms on
  /// Coord (and those on neither coordinate), as C++ text.
  std::vector<std::string> Guards;
};

struct MatmulNest {
  const clang::FunctionDecl *Kernel = nullptr;
  const clang::CompoundStmt *Body = nullptr;
  const clang::ForStmt *Loop = nullptr;
  CanonicalLoop Bounds; ///< The loop's IV, lower bound, bound and compare.
  /// The coordinates: [0] follows x, [1] follows y.
  const clang::VarDecl *Coord[2] = {nullptr, nullptr};
  MatmulOperand Left;  ///< Follows y: its rows are the output's rows.
  MatmulOperand Right; ///< Follows x: its columns are the output's columns.
  /// What replaces the loop in the epilogue, without `;`:
  /// `acc += optiml_sum`, `c[i * nj + j] += alpha * optiml_sum`.
  std::string Accumulate;
  /// Whether consecutive x are adjacent in the output (else y are).
  bool OutputXContiguous = true;
  /// The top-level early returns' return statements.
  std::vector<const clang::ReturnStmt *> Returns;

  /// The shape of \p Loop (the site \p Site) in \p Kernel, or why not.
  static llvm::Expected<MatmulNest> analyze(const clang::FunctionDecl &Kernel,
                                            const clang::Stmt &Loop,
                                            llvm::StringRef Site,
                                            clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_TENSORCORES_MATMULNEST_H
