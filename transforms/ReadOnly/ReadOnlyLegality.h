//===- ReadOnlyLegality.h - may loads skip coherence? -----------*- C++ -*-===//
//
// `__ldg(&x[i])` loads through the non-coherent read-only path: nothing
// the kernel does while it runs may change what it reads there. For the
// kernel's pointer parameter `x`, that holds when
//   * the kernel never writes through `x` or a pointer derived from it, nor
//     lets it escape where it cannot be followed (a call, a stored pointer:
//     BufferAccess), and `x`'s elements are not volatile;
//   * no buffer the kernel writes may overlap `x`: each written pointer
//     parameter is distinct from it (DistinctBuffers), or both are
//     `__restrict__`, and the kernel stores through no global pointer
//     variable;
//   * the element type has an `__ldg` overload in the translation unit
//     (CUDA's: char, short, int, long, long long and their unsigned forms,
//     float, double, their vector types; `__half` with cuda_fp16.h).
// The loads rewritten are the kernel's reads of an element through `x` or
// through a local pointer only ever derived from it (`const float *row =
// x + r * n;`): those reach global memory, where `__ldg` is defined. Loads
// written inside a macro, and those in other functions, are left alone.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_READONLY_READONLYLEGALITY_H
#define OPTIML_TRANSFORMS_READONLY_READONLYLEGALITY_H

#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace optiml {

/// What the rewrite needs, decided once by ReadOnlyLegality.
struct ReadOnlyPlan {
  const clang::ParmVarDecl *Buffer = nullptr;
  /// The element lvalues read (`x[i]`, `*(row + k)`), in source order.
  std::vector<const clang::Expr *> Loads;
  /// Set when the kernel is not launched in this file, so that the buffers'
  /// distinctness rests on the spec.
  bool RestsOnSpec = false;
};

class ReadOnlyLegality {
public:
  /// The loads of buffer site \p S to route through `__ldg`, or a
  /// LegalityError (Illegal or NotApplicable) with the place and the rule
  /// that refuses it.
  static llvm::Expected<ReadOnlyPlan> check(const Site &S,
                                            clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_READONLY_READONLYLEGALITY_H
