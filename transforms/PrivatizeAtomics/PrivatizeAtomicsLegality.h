//===- PrivatizeAtomicsLegality.h - may a block count privately? -*- C++
//-*-===//
//
// A histogram (`atomicAdd(&bins[key], 1)` at a data-dependent key) sends
// every thread of the grid to the same few hundred global addresses, where
// the atomics are serialized. A copy of the array per block, in __shared__
// memory, takes the block's atomics instead; at the end the block adds each
// non-zero bin of its copy to the global array once. The sums are the same
// integers when
//   * the buffer is a pointer parameter to int, unsigned or unsigned long
//     long, used in the kernel only as `atomicAdd(&buf[i], v)` or
//     `atomicAdd(buf + i, v)` statements whose old value is unused (so no
//     thread reads a bin while the block counts privately);
//   * every index is provably in [0, M) for a constant M small enough that
//     M bins fit in static shared memory beside the kernel's own (48 KiB):
//     an 8- or 16-bit unsigned value, `e & C`, `e % C` with `e` unsigned,
//     `min(e, C)` / `max(e, 0)` combinations, constants, and locals never
//     reassigned (or assigned once, earlier in the block) that hold one of
//     these; or in [0, M) for M a kernel-invariant expression of
//     parameters (`min(max(b, 0), nbins - 1)`, `e % nbins`): then the copy
//     holds PrivateCapacity bins and is used only when M is in
//     [1, PrivateCapacity], a test every thread of the grid answers alike;
//   * every thread reaches the end of the kernel, where the block waits
//     for all of its threads before merging: top-level `if (C) return;`
//     become guards of the statements after them (foldEarlyReturns), and
//     any other `return` is refused.
// Integer additions commute, so the counts do not depend on the order.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_PRIVATIZEATOMICS_PRIVATIZEATOMICSLEGALITY_H
#define OPTIML_TRANSFORMS_PRIVATIZEATOMICS_PRIVATIZEATOMICSLEGALITY_H

#include "optiml/Analysis/Legality/GuardTerms.h"
#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace optiml {

/// The bins a copy holds when their count is a kernel parameter: 16 KiB of
/// 4-byte counts, leaving room for several blocks an SM.
constexpr uint64_t PrivateCapacity = 4096;

/// What the rewrite needs, decided once by PrivatizeAtomicsLegality.
struct PrivatizeAtomicsPlan {
  const clang::ParmVarDecl *Buffer = nullptr;
  clang::QualType Element; ///< The bins' type, unqualified.
  uint64_t Bins = 0;       ///< Every index is below this; the copy's size.
  /// Where the bound is a kernel parameter: the count of bins as C++ text
  /// (`(nbins - 1) + 1`), every index below it. The copy has Bins =
  /// PrivateCapacity entries and is used when the count fits; else the
  /// atomics go to the buffer as before.
  std::string Count;
  /// The buffer's references inside the atomics, to point at the copy.
  std::vector<const clang::DeclRefExpr *> Uses;
  /// The early returns turned into guards, the last statement among the
  /// guarded ones.
  ReturnFold Fold;
};

class PrivatizeAtomicsLegality {
public:
  /// The plan for buffer site \p S, or a LegalityError (Illegal or
  /// NotApplicable) with the place and the rule that refuses it.
  static llvm::Expected<PrivatizeAtomicsPlan> check(const Site &S,
                                                    clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_PRIVATIZEATOMICS_PRIVATIZEATOMICSLEGALITY_H
