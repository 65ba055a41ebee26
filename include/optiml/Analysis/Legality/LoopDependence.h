//===- LoopDependence.h - may two parts of a loop be reordered? -*- C++ -*-===//
//
// Loop fission runs all iterations of a loop body's first part before any
// iteration of its second; loop fusion runs each iteration of a second
// loop right after the same iteration of the first. Both keep every pair
// of accesses in order except one kind: the later part at iteration p and
// the earlier part at a later iteration q > p. Originally the later part
// ran first; rewritten, the earlier part does. The rewrite is sound when
// no such pair reaches the same memory with one of them writing, and no
// variable written in one part is used in the other.
//
// Accesses are compared by their offsets (StmtAccesses) in the loop's
// induction variable i: `A[c*i + r1]` and `A[c*i + r2]` with the same
// constant stride c meet only when the iterations are (r2 - r1) / (c * step)
// apart, which must not be negative. Anything else (different or symbolic
// strides, a distance that is not a constant, an offset that is not a
// polynomial, an index reading a value the loop changes, a pointer whose
// object is unknown) is unproven and refused.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_LOOPDEPENDENCE_H
#define OPTIML_ANALYSIS_LEGALITY_LOOPDEPENDENCE_H

#include "optiml/Analysis/Legality/StmtAccesses.h"

#include <cstdint>
#include <optional>
#include <string>

namespace optiml {

/// A pair of accesses the reordering may break.
struct DependenceConflict {
  const MemoryAccess *Later = nullptr;   ///< In the part that ran second.
  const MemoryAccess *Earlier = nullptr; ///< In the part that ran first.
  enum Kind {
    /// They meet when the earlier part runs Distance iterations after the
    /// later one.
    Reversed,
    /// They reach the same element on every iteration.
    EveryIteration,
    /// Not proven apart; Why says what stands in the way.
    Unproven,
  } K = Unproven;
  int64_t Distance = 0;
  std::string Why;
};

/// A variable that one part writes and the other uses.
struct VariableConflict {
  const clang::VarDecl *Var = nullptr;
  const clang::DeclRefExpr *Write = nullptr; ///< Where it is written.
  const clang::DeclRefExpr *Use = nullptr;   ///< Its use in the other part.
  bool WrittenByEarlier = false;
};

class LoopDependence {
public:
  /// The parts \p Earlier and \p Later of each iteration of a loop of
  /// \p Kernel whose induction variable \p IV moves by \p Step. Distinct
  /// pointer parameters are taken not to overlap when checkDistinctBuffers
  /// says so (or one is __restrict__).
  LoopDependence(const StmtAccesses &Earlier, const StmtAccesses &Later,
                 const clang::VarDecl &IV, int64_t Step,
                 const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

  /// The first access pair, in the order of Later's accesses, that the
  /// reordering may break; nothing when there is none.
  std::optional<DependenceConflict> firstConflict();

  /// Whether an answer so far rests on distinct pointer parameters not
  /// overlapping while the kernel has no launch in this file: then only
  /// the kernel spec promises it.
  bool restsOnSpec() const;

  /// The first variable (other than \p Except) that \p A writes and \p B
  /// uses, or that \p B writes and \p A uses.
  static std::optional<VariableConflict>
  firstSharedVariable(const StmtAccesses &A, const StmtAccesses &B,
                      const clang::VarDecl *Except = nullptr);

  /// Whether \p X and \p Y may reach the same object, one writing: the test
  /// for code with no iteration between them. Sets Why to the obstacle.
  bool mayOverlap(const MemoryAccess &X, const MemoryAccess &Y,
                  std::string &Why);

private:
  std::optional<DependenceConflict> test(const MemoryAccess &Later,
                                         const MemoryAccess &Earlier);
  std::optional<std::string> sameObject(const MemoryAccess &X,
                                        const MemoryAccess &Y, bool &Same);
  std::optional<std::string> variantAtom(const MemoryAccess &A) const;
  /// Why the kernel's pointer parameters may overlap, or nothing when
  /// checkDistinctBuffers accepts them (asked once).
  const std::optional<std::string> &whyParamsMayOverlap();

  const StmtAccesses &Earlier, &Later;
  const clang::VarDecl &IV;
  int64_t Step;
  const clang::FunctionDecl &Kernel;
  clang::ASTContext &Ctx;
  std::optional<std::optional<std::string>> ParamsOverlap;
  bool ReliedOnDistinct = false;
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_LOOPDEPENDENCE_H
