//===- LaunchConfig.h - the grid and block of a <<<>>> launch -*- C++ -*-===//
//
// A launch's configuration is written many ways: a literal, a macro,
// `dim3(32, 8)`, or a local `dim3 block(16, 16)` declared a few lines up.
// Rewrites of the geometry need the expression of each component where it
// is written, and checks need their values when they are constants.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_LAUNCHCONFIG_H
#define OPTIML_ANALYSIS_LEGALITY_LAUNCHCONFIG_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>
#include <string>

namespace optiml {

/// The grid (operand 0) or block (operand 1) of one launch.
struct ConfigOperand {
  const clang::Expr *Arg = nullptr;    ///< As written between <<< and >>>.
  const clang::VarDecl *Var = nullptr; ///< The local variable Arg names.
  /// The written x, y, z expressions (x first; missing ones are 1). Empty
  /// when the value cannot be traced to its expressions; Unknown says why.
  llvm::SmallVector<const clang::Expr *, 3> Dims;
  /// Written as dim3 constructor arguments (`dim3(a, b)`, `block(a, b)`),
  /// not as one integer converted to dim3.
  bool IsDim3 = false;
  /// The dim3 constructor call whose arguments are Dims, when IsDim3.
  const clang::CXXConstructExpr *Construct = nullptr;
  std::string Unknown;
};

class LaunchConfig {
public:
  static ConfigOperand operand(const clang::CUDAKernelCallExpr &Call,
                               unsigned Index, clang::ASTContext &Ctx);

  /// (x, y, z) when every written component has a known value (traced()).
  static std::optional<std::array<uint64_t, 3>>
  evaluate(const ConfigOperand &Op, clang::ASTContext &Ctx);

  /// \p E as a compile-time integer, if it is one.
  static std::optional<int64_t> constant(const clang::Expr *E,
                                         const clang::ASTContext &Ctx);

  /// \p E's value when it is a compile-time integer or is computed, through
  /// integer arithmetic and casts, from local variables that keep their
  /// initial value (`int threads = 256;`, `block.x` of `dim3 block(32, 8)`),
  /// as host code usually spells a launch.
  static std::optional<int64_t> traced(const clang::Expr *E,
                                       clang::ASTContext &Ctx);

  /// \p E without parentheses, implicit casts and explicit casts between
  /// arithmetic types (`(float)n`, `(unsigned int)ceil(...)`).
  static const clang::Expr *stripArithmeticCasts(const clang::Expr *E);

  /// The initializer of the local variable \p Ref names when nothing
  /// changes the variable after it (so its value there is its value
  /// everywhere); else null.
  static const clang::Expr *initialValue(const clang::DeclRefExpr &Ref,
                                         clang::ASTContext &Ctx);

private:
  static void resolveValue(const clang::Expr *E, ConfigOperand &Op,
                           clang::ASTContext &Ctx, bool FollowVar);
  static std::optional<int64_t> traced(const clang::Expr *E,
                                       clang::ASTContext &Ctx, unsigned Depth);
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_LAUNCHCONFIG_H
