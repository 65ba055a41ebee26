//===- ExplicitUnrollPrinter.h - the text of an unrolled loop --*- C++ -*-===//
//
// Prints the statements that replace `for (int i = lo; i < n; i += s) BODY`
// when unrolled F times (ExplicitUnrollLegality decides whether it may be):
//
//   int optiml_i_u = lo;
//   for (; optiml_i_u + (F-1)*s < n; optiml_i_u += F*s) {
//     {
//       const int i = optiml_i_u;
//       BODY
//     }
//     ... F copies, copy j declaring i = optiml_i_u + j*s ...
//   }
//   #pragma unroll 1
//   for (int i = optiml_i_u; i < n; i += s) BODY
//
// A grid-stride loop's step (`blockDim.x * gridDim.x`) is read once into
// a constant, `const int optiml_i_s = blockDim.x * gridDim.x;`, and the
// multiples of s are products with it.
//
// The copies and the remainder loop keep the body's text, comments and
// layout; they are only re-indented. Each copy sits in its own braces, so
// its declarations do not clash with the other copies'.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_UNROLL_EXPLICITUNROLLPRINTER_H
#define OPTIML_TRANSFORMS_UNROLL_EXPLICITUNROLLPRINTER_H

#include "optiml/Rewrite/LoopLines.h"
#include "transforms/Unroll/ExplicitUnrollLegality.h"

#include <string>
#include <vector>

namespace optiml {

class ExplicitUnrollPrinter {
public:
  /// \p Counter names the unrolled loop's counter and \p Stride the
  /// constant holding a grid-stride loop's step; both must be new to the
  /// kernel.
  ExplicitUnrollPrinter(const ExplicitUnrollPlan &Plan, std::string Counter,
                        std::string Stride, clang::ASTContext &Ctx);

  /// The text replacing the loop, from its `for` through its last
  /// character; lines after the first carry the loop line's indentation.
  llvm::Expected<std::string> print();

private:
  /// " + K steps" (K * s written out, or K times the stride's constant),
  /// empty for K = 0.
  std::string plusSteps(int64_t K) const;
  /// The unrolled loop's test: the loop's condition with the IV replaced
  /// by the counter plus (F-1) steps.
  llvm::Expected<std::string> unrolledCondition() const;
  /// Copy \p J of the body, one nesting level in.
  llvm::Error printCopy(int64_t J);
  /// The original loop starting from the counter, under `#pragma unroll 1`.
  llvm::Error printRemainder();
  /// Whether the statements must be wrapped in braces: the loop is not
  /// directly in a block, or a jump (case label, goto) could cross the
  /// counter's declaration.
  bool needsBlock() const;

  void line(unsigned Depth, llvm::StringRef Text) { Written.line(Depth, Text); }
  void lines(unsigned Depth, llvm::ArrayRef<std::string> Texts) {
    Written.lines(Depth, Texts);
  }

  const ExplicitUnrollPlan &Plan;
  const CanonicalLoop &L;
  std::string Counter;
  std::string Stride;
  std::string Type; ///< The IV's type, as written in declarations.
  clang::ASTContext &Ctx;
  LoopLines Written; ///< What replaces the loop.
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_UNROLL_EXPLICITUNROLLPRINTER_H
