//===- PadSharedLegality.h - may a __shared__ row grow? ---------*- C++ -*-===//
//
// `__shared__ float t[32][32]` read down a column (`t[threadIdx.x][k]`)
// puts the 32 lanes of a warp 32 words apart: all in one bank, a 32-way
// conflict. Declaring it `t[32][32 + 1]` moves each row one bank over.
// For a statically sized 2-D `__shared__` array declared in the kernel:
//   * some access's row index varies with threadIdx.x so that neighbouring
//     lanes land in the same bank (IndexPolynomial gives the stride), and
//     the padding makes that conflict smaller; else it is NotApplicable;
//   * every use is a plain element `t[i][j]`, read, written or given by
//     address to an atomic: a row used as a pointer, `sizeof t`, the
//     array passed to a function or an element's address kept would see
//     the new layout, so they are Illegal;
//   * the kernel's static shared memory, padding included, stays within
//     the 48 KiB a kernel may declare statically;
//   * the inner dimension is written in the declaration (not through a
//     typedef), so its size can be edited where it is spelled.
// Column indices are taken to stay within a row (`t[i][j]` with j >= C is
// undefined behaviour in C++, which the rule does not check).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_PADSHARED_PADSHAREDLEGALITY_H
#define OPTIML_TRANSFORMS_PADSHARED_PADSHAREDLEGALITY_H

#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace optiml {

/// What the rewrite needs, decided once by PadSharedLegality.
struct PadSharedPlan {
  /// The arrays to pad, in source order.
  std::vector<const clang::VarDecl *> Arrays;
  unsigned Pad = 1; ///< Elements added to each row.
};

class PadSharedLegality {
public:
  /// The arrays of kernel site \p S to pad by \p Pad elements, or a
  /// LegalityError (Illegal or NotApplicable) with the place and the rule
  /// that refuses the first conflicting array.
  static llvm::Expected<PadSharedPlan> check(const Site &S, unsigned Pad,
                                             clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_PADSHARED_PADSHAREDLEGALITY_H
