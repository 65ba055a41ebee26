//===- SpecExprEvaluator.h - numbers from spec expressions ----*- C++ -*-===//
//
// Buffer lengths, scalar values and launch dimensions are written as C-like
// expressions of named problem sizes, so that one spec serves every problem
// instance. Integer arithmetic is 64-bit and checked: a spec that overflows
// or divides by zero is an error, never a silently wrong buffer size.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_SPECEXPREVALUATOR_H
#define OPTIML_SPEC_SPECEXPREVALUATOR_H

#include "optiml/Spec/KernelSpec.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>

namespace optiml {

/// The value of an expression: an integer unless a floating literal took
/// part, in which case the arithmetic was done in double.
struct SpecValue {
  bool IsInteger = true;
  int64_t Int = 0;
  double Real = 0;

  static SpecValue integer(int64_t V) { return {true, V, double(V)}; }
  static SpecValue real(double V) { return {false, 0, V}; }
  double toDouble() const { return IsInteger ? double(Int) : Real; }
};

/// Evaluates expressions against a fixed set of sizes.
///
/// Grammar, with C's precedence: literals (42, 0x10, 2.5, 1e-4), size
/// names, unary -/+, * / %, + -, << >>, parentheses, and the functions
/// ceil_div(a, b), min(a, b), max(a, b).
class SpecExprEvaluator {
public:
  explicit SpecExprEvaluator(const std::map<std::string, int64_t> &Sizes)
      : Sizes(Sizes) {}

  /// Errors point at the offending token (E.Pos shifted by its offset).
  llvm::Expected<SpecValue> evaluate(const SpecExpr &E) const;

  /// As evaluate(), and a floating result is an error: \p What names the
  /// quantity (e.g. "length of buffer 'A'") for the message.
  llvm::Expected<int64_t> evaluateInteger(const SpecExpr &E,
                                          llvm::StringRef What) const;

private:
  const std::map<std::string, int64_t> &Sizes;
};

} // namespace optiml

#endif // OPTIML_SPEC_SPECEXPREVALUATOR_H
