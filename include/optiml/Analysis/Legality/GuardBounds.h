//===- GuardBounds.h - what guards say about one variable -------*- C++ -*-===//
//
// A stencil reads its neighbours `in[i - 1]`, `in[i + nx]` only where the
// guards keep them inside the grid: `x >= 1` follows from `x >= 0` (a
// thread coordinate) and `x != 0` (the border branch returned). Staging
// must prove that each shifted read stays in the region its tile loads, so
// it needs those bounds as symbolic facts: v >= L, v <= U, v != E, with L,
// U, E polynomials of other values. Comparisons that do not isolate v with
// coefficient 1 say nothing (ignoring a fact is always sound).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_GUARDBOUNDS_H
#define OPTIML_ANALYSIS_LEGALITY_GUARDBOUNDS_H

#include "optiml/Analysis/Legality/GuardTerms.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"

#include <optional>
#include <vector>

namespace optiml {

/// A guard term read as `v OP E`: v < E, v <= E, v > E, v >= E, v == E or
/// v != E, with the negation of the term applied.
struct VarComparison {
  clang::BinaryOperatorKind Op = clang::BO_LT;
  IndexPolynomial Bound;
};

/// \p T as a comparison of \p V, when it is `A op B` with A - B linear in
/// \p V with coefficient +-1 and \p V nowhere else. \p Poly turns an
/// expression into a polynomial that keeps \p V as an atom.
std::optional<VarComparison> compareOf(
    const GuardTerm &T, const clang::VarDecl &V,
    const std::function<llvm::Expected<IndexPolynomial>(const clang::Expr &)>
        &Poly);

class VarBounds {
public:
  /// Facts about \p V from \p Terms; \p AtLeastZero adds v >= 0 (a thread
  /// coordinate made of built-ins). \p Accept may reject a bound (one that
  /// varies with the thread, say).
  static VarBounds
  from(const clang::VarDecl &V, llvm::ArrayRef<GuardTerm> Terms,
       bool AtLeastZero,
       const std::function<llvm::Expected<IndexPolynomial>(const clang::Expr &)>
           &Poly,
       const std::function<bool(const IndexPolynomial &)> &Accept = nullptr);

  void addLower(IndexPolynomial L) { Lower.push_back(std::move(L)); }
  void addUpper(IndexPolynomial U) { Upper.push_back(std::move(U)); }
  void addNotEqual(IndexPolynomial E) { NotEqual.push_back(std::move(E)); }
  void add(const VarComparison &C);

  /// Whether v >= \p L follows; whether v <= \p U follows. A bound equal
  /// to an excluded value is tightened by one first.
  bool provesAtLeast(const IndexPolynomial &L) const;
  bool provesAtMost(const IndexPolynomial &U) const;
  /// Whether `v OP Bound` follows.
  bool proves(const VarComparison &C) const;

  /// The known lower and upper bounds, with excluded values stepped over:
  /// v >= 0 and v != 0 give v >= 1 too.
  std::vector<IndexPolynomial> lowers() const { return tightened(false); }
  std::vector<IndexPolynomial> uppers() const { return tightened(true); }

private:
  std::vector<IndexPolynomial> tightened(bool Up) const;

  std::vector<IndexPolynomial> Lower, Upper, NotEqual;
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_GUARDBOUNDS_H
