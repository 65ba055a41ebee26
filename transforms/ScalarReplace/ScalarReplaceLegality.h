//===- ScalarReplaceLegality.h - may an element live in a register? -*- C++
//-*-===//
//
// `for (k...) C[i * n + j] += A[...] * B[...];` loads and stores C's element
// on every iteration: the compiler must assume a store through C may change
// what A and B point to. Keeping the element in a register for the whole
// loop (load before, store after) is sound when
//   * the loop reaches the buffer only through that one element, at an
//     index the loop cannot change, and never lets its address escape;
//   * no other buffer the loop reads overlaps it (DistinctBuffers, or the
//     parameter is already __restrict__);
//   * no other thread may look at it mid-loop (no barrier in the loop);
//   * the loop cannot leave past the store (no return or goto in it);
//   * loading the element before the loop cannot fault: the loop runs at
//     least once (a constant trip count, a do-while), the element was
//     already accessed right before it, or the load is put under the loop's
//     entry test (`if (0 < k) { ... }`).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_SCALARREPLACE_SCALARREPLACELEGALITY_H
#define OPTIML_TRANSFORMS_SCALARREPLACE_SCALARREPLACELEGALITY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace optiml {

/// One buffer element the loop keeps in a register.
struct ReplacedElement {
  const clang::ParmVarDecl *Buffer = nullptr;
  /// Every access to it in the loop, in source order; the first one's index
  /// text is used for the load and the store.
  std::vector<const clang::ArraySubscriptExpr *> Uses;
  clang::QualType Element; ///< Without qualifiers.
};

struct ScalarReplacePlan {
  std::vector<ReplacedElement> Elements;
  /// The loop's entry test, when the load must be guarded by it; else empty.
  std::string EntryTest;
  /// Set when the kernel is not launched in this file, so that the buffers'
  /// distinctness rests on the spec.
  bool RestsOnSpec = false;
};

class ScalarReplaceLegality {
public:
  /// The elements of \p Loop (site \p Site of \p Kernel) that may be kept
  /// in registers, or an Illegal / NotApplicable LegalityError saying why
  /// none may.
  static llvm::Expected<ScalarReplacePlan>
  check(const clang::Stmt &Loop, llvm::StringRef Site,
        const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_SCALARREPLACE_SCALARREPLACELEGALITY_H
