//===- FastMathLegality.h - what fast-math may rewrite ----------*- C++ -*-===//
//
// CUDA's fast intrinsics (__expf, __fdividef, rsqrtf, ...) trade the last
// bits of single-precision results for speed. Which calls and divisions
// qualify is decided on the AST, never on text: the callee must be the
// C library's single-precision function (expf, or the float overload of
// exp), a division must be computed in float, and nothing written inside a
// macro is touched. The result differs numerically by design; whether that
// is acceptable is the kernel spec's tolerance's to say.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_FASTMATH_FASTMATHLEGALITY_H
#define OPTIML_TRANSFORMS_FASTMATH_FASTMATHLEGALITY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// Which rewrites to make: the `ops` parameter of fast-math.
enum class FastMathOps {
  All,    ///< Everything below.
  ExpLog, ///< expf, logf, log2f, log10f, powf.
  Trig,   ///< sinf, cosf, tanf.
  Div,    ///< float `a / b` -> __fdividef(a, b).
  Rsqrt,  ///< `1.0f / sqrtf(x)` -> rsqrtf(x).
};

/// One rewrite fast-math makes.
struct FastMathCandidate {
  enum Kind {
    Intrinsic,      ///< Call's callee renamed to Replacement.
    Divide,         ///< Div becomes __fdividef(lhs, rhs).
    ReciprocalSqrt, ///< Div (`1 / sqrtf(x)`, Call the sqrtf) becomes rsqrtf(x).
  };
  Kind What = Intrinsic;
  const clang::CallExpr *Call = nullptr;
  const clang::BinaryOperator *Div = nullptr;
  std::string Replacement; ///< "__expf", "__fdividef", "rsqrtf".
};

class FastMathLegality {
public:
  /// The value of the `ops` parameter, or nothing if it names no group.
  static std::optional<FastMathOps> parseOps(llvm::StringRef Name);

  /// Every rewrite of group \p Ops in \p Kernel's body, in source order; a
  /// NotApplicable LegalityError when there is none (or every one is
  /// written inside a macro).
  static llvm::Expected<std::vector<FastMathCandidate>>
  candidates(const clang::FunctionDecl &Kernel, FastMathOps Ops,
             clang::ASTContext &Ctx);

  /// Where \p E is written in the main file, as a character range; nothing
  /// when it cannot be edited there (part of a macro expansion).
  static std::optional<clang::CharSourceRange>
  writtenRange(const clang::Expr &E, const clang::ASTContext &Ctx);

private:
  static std::optional<FastMathCandidate>
  reciprocalSqrt(const clang::BinaryOperator &Div, clang::ASTContext &Ctx);
  static std::optional<FastMathCandidate>
  divide(const clang::BinaryOperator &Div, clang::ASTContext &Ctx);
  static std::optional<FastMathCandidate> intrinsic(const clang::CallExpr &Call,
                                                    FastMathOps Ops,
                                                    clang::ASTContext &Ctx);
  /// Whether the text the candidate's edits change is written in the main
  /// file, outside any macro.
  static bool editable(const FastMathCandidate &C, clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_FASTMATH_FASTMATHLEGALITY_H
