//===- IndexPolynomial.h - an array index as a polynomial -------*- C++ -*-===//
//
// Staging, coalescing and reuse questions are about how an index moves
// when threadIdx, a loop variable or a coarsening copy moves. Writing the
// index as a polynomial over those values (with local variables replaced
// by their single definitions) answers them by inspecting coefficients:
// `A[row * k + i]` with `row = blockIdx.y * blockDim.y + threadIdx.y` is
// blockIdx.y*blockDim.y*k + threadIdx.y*k + i, so it is contiguous in i and
// strides by k across threadIdx.y.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_INDEXPOLYNOMIAL_H
#define OPTIML_ANALYSIS_LEGALITY_INDEXPOLYNOMIAL_H

#include "optiml/Analysis/Legality/CudaBuiltins.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// A value an index is a polynomial in: a CUDA built-in component or a
/// variable that is not expanded (a parameter, a loop variable).
struct IndexAtom {
  const clang::VarDecl *Var = nullptr; ///< Null for a built-in.
  BuiltinRef::Var Builtin = BuiltinRef::ThreadIdx;
  unsigned Dim = 0;

  static IndexAtom of(const clang::VarDecl &V) { return {&V}; }
  static IndexAtom of(BuiltinRef B) { return {nullptr, B.Which, B.Dim}; }

  bool isBuiltin(BuiltinRef::Var Which) const {
    return !Var && Builtin == Which;
  }
  std::string str() const;
  bool operator<(const IndexAtom &O) const;
  bool operator==(const IndexAtom &O) const {
    return !(*this < O) && !(O < *this);
  }
};

class IndexPolynomial {
public:
  using Monomial = std::vector<IndexAtom>; ///< Sorted; empty for 1.

  IndexPolynomial() = default;
  static IndexPolynomial constant(int64_t C);
  static IndexPolynomial atom(IndexAtom A);

  /// \p E as a polynomial. Locals declared with an initializer and never
  /// assigned afterwards are replaced by their initializer; \p Expand may
  /// veto that for a variable (a loop variable is kept as an atom).
  /// Casts between integer types are looked through (the rewrites that use
  /// the polynomial keep the original text for the arithmetic). Anything
  /// else (a division, a call, a memory read) is an error naming it.
  static llvm::Expected<IndexPolynomial>
  of(const clang::Expr &E, clang::ASTContext &Ctx,
     const std::function<bool(const clang::VarDecl &)> &Expand = nullptr);

  IndexPolynomial operator+(const IndexPolynomial &O) const;
  IndexPolynomial operator-(const IndexPolynomial &O) const;
  IndexPolynomial operator*(const IndexPolynomial &O) const;
  bool operator==(const IndexPolynomial &O) const { return Terms == O.Terms; }

  bool isZero() const { return Terms.empty(); }
  std::optional<int64_t> asConstant() const;
  /// Whether some term has a negative coefficient.
  bool hasNegativeTerm() const;
  /// Whether some monomial contains an atom satisfying \p P.
  bool mentions(const std::function<bool(const IndexAtom &)> &P) const;
  /// The polynomial Q with this = Q * A + (terms without A), when A occurs
  /// at most once in every monomial; nothing otherwise.
  std::optional<IndexPolynomial> coefficient(const IndexAtom &A) const;
  /// The terms whose monomials satisfy / do not satisfy \p P.
  IndexPolynomial select(const std::function<bool(const Monomial &)> &P) const;
  /// Replaces atom \p A by \p By everywhere.
  IndexPolynomial substitute(const IndexAtom &A,
                             const IndexPolynomial &By) const;

  /// C++ text; \p Name spells each atom (by default IndexAtom::str()).
  std::string str(const std::function<std::string(const IndexAtom &)> &Name =
                      nullptr) const;

private:
  std::map<Monomial, int64_t> Terms; ///< Zero coefficients are dropped.
};

/// Whether \p Var is assigned anywhere in \p Scope after its declaration
/// (assignment, ++/--, address taken or bound to a non-const reference).
bool isReassigned(const clang::VarDecl &Var, const clang::Stmt &Scope,
                  clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_INDEXPOLYNOMIAL_H
