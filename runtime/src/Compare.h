//===- Compare.h - Element-wise output comparison ---------------*- C++ -*-===//
//
// Part of OptiML. The numeric rules of DESIGN.md section 3: per element
// |c - r| <= atol + rtol * |r| for floats and exact equality for integers, no
// NaN/Inf where the reference has none, and a relative-norm bound.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_COMPARE_H
#define OPTIML_RUNTIME_COMPARE_H

#include "ElemAccess.h"
#include "Plan.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace optiml {

/// Error magnitudes of one output buffer, as the result reports them:
/// MaxRelErr is over elements whose reference is non-zero; NormErr is
/// ||c - r||_2 / ||r||_2 (absolute when ||r|| = 0); NonFinite counts NaN/Inf
/// in the candidate where the reference is finite.
using CompareStats = protocol::BufferComparison;

enum class ElemIssue { Mismatch, NonFinite };

using IssueFn = std::function<void(ElemIssue, size_t Index)>;

/// Compares the lanes of buffer \p A in \p Cand with those in \p Ref,
/// each by its own type's rule, skipping the lanes set in \p Skip (may be
/// null), and calls \p OnIssue for each failing lane. The result's Name is
/// left for the caller.
CompareStats compareBuffers(const Arg &A, const unsigned char *Ref,
                            const unsigned char *Cand, const Tolerance &Tol,
                            const std::vector<bool> *Skip,
                            const IssueFn &OnIssue);

/// True when two runs of one kernel agree at \p Index: identical bits, both
/// NaN, or (floats only) within the tolerance, which admits the reordering of
/// legitimate floating-point atomics.
bool runsAgree(ElemType T, const unsigned char *X, const unsigned char *Y,
               size_t Index, const Tolerance &Tol);

} // namespace optiml

#endif // OPTIML_RUNTIME_COMPARE_H
