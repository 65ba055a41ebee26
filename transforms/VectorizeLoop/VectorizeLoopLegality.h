//===- VectorizeLoopLegality.h - may a loop's walk load W at once? -*- C++ -*-//
//
// `for (j = lo; j < n; ++j) BODY` whose BODY reads `p[base + j]` (one
// element further each iteration) is rewritten to run W iterations at a
// time, with one vector load (float4, int4, double2, ...) of the W
// elements before their copies of BODY; a scalar loop does the rest, and
// all of the loop when an address is not aligned (VectorizeLoop.cpp shows
// the result). The copies run in the original order and do the same
// arithmetic, so only when the elements are read moves. That is sound when:
//
// - the site is a canonical for-loop counting up by 1 to a `<` or `<=`
//   bound (LoopInfo), written outside macros and without a loop pragma, its
//   induction variable assigned only by the header;
// - its body runs from its first statement to its last: no break,
//   continue, return, goto or label, no static or __shared__ declaration
//   (each copy would have its own), no barrier or warp exchange (a load
//   moved before another thread's write past a barrier would miss it);
// - each vectorized read `p[e]` reads, where `e`'s polynomial
//   (IndexPolynomial) has the coefficient 1 on the induction variable and
//   its other variables are loop-invariant, an int / unsigned / float /
//   double element (not volatile) of a kernel buffer (BufferRoot); it runs
//   on every iteration (not under an if, ?:, && or ||, nor in a nested
//   loop), so the vector load reads only elements the loop read;
// - nothing the loop writes may overlap that buffer (LoopWrites): it is not
//   written in the loop, other buffers written are distinct from it
//   (DistinctBuffers) or one of the two is __restrict__, and no store goes
//   through a pointer whose buffer is unknown, and no call may write memory.
//
// Reads that fail a rule stay scalar reads in the copies; the loop is
// refused only when no read is left, with the first reason met.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_VECTORIZELOOP_VECTORIZELOOPLEGALITY_H
#define OPTIML_TRANSFORMS_VECTORIZELOOP_VECTORIZELOOPLEGALITY_H

#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace optiml {

/// The reads of one walked element (the same address in an iteration),
/// loaded W iterations at a time as one vector.
struct WalkedRead {
  const clang::ParmVarDecl *Buffer = nullptr;
  /// In source order; the first one's text spells the vector's address.
  std::vector<const clang::ArraySubscriptExpr *> Reads;
  std::string Element; ///< "float", "double", "int" or "unsigned int".
  std::string Vector;  ///< "float4", "double2", "uint4", ...
};

struct VectorizeLoopPlan {
  CanonicalLoop Loop;
  unsigned Width = 4;
  std::vector<WalkedRead> Walks;
  /// Whether the induction variable is declared in the loop's header (and
  /// so not visible after it).
  bool declaresIV() const;
};

class VectorizeLoopLegality {
public:
  /// The plan for the loop site \p S of its kernel with \p Width lanes, or
  /// a LegalityError (Illegal or NotApplicable) with the place and the
  /// rule that refuses it.
  static llvm::Expected<VectorizeLoopPlan> check(const Site &S, unsigned Width,
                                                 clang::ASTContext &Ctx);

  /// "float4" for "float" and 4; empty when CUDA has no such vector type to
  /// load in one instruction (double4).
  static std::string vectorType(llvm::StringRef Element, unsigned Width);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_VECTORIZELOOP_VECTORIZELOOPLEGALITY_H
