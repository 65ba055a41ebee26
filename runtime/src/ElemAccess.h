//===- ElemAccess.h - Typed access to elements of packed buffers *- C++ -*-===//
//
// Part of OptiML. Buffers travel through the runner as untyped bytes; these
// helpers give typed access to one element at a time, which is all that input
// generation, comparison and reporting need. The types themselves are the
// protocol's (optiml/Protocol/ElemType.h).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_ELEMACCESS_H
#define OPTIML_RUNTIME_ELEMACCESS_H

#include "Plan.h"

#include "optiml/Protocol/VerifyReport.h"

#include <cstddef>
#include <cstdint>

namespace optiml {

/// Element \p Index of a packed array, as a double (inexact above 2^53 for
/// 64-bit integers, which only matters for error magnitudes in reports).
double loadAsDouble(ElemType T, const unsigned char *Data, size_t Index);

/// Stores \p V into element \p Index; integer types round to nearest and
/// clamp to their range, NaN becomes 0.
void storeDouble(ElemType T, double V, unsigned char *Data, size_t Index);

/// Stores \p V exactly when representable; integer types clamp.
void storeInt(ElemType T, int64_t V, unsigned char *Data, size_t Index);

/// The bytes of scalar argument \p A, little-endian, in an 8-byte slot.
void storeScalar(const Arg &A, unsigned char Out[8]);
/// The bytes of value \p V of type \p T, as a kernel parameter takes it.
void storeValue(ElemType T, const protocol::ScalarValue &V,
                unsigned char Out[8]);

/// True when element \p Index of \p A and \p B has the same bytes.
bool elemBitsEqual(ElemType T, const unsigned char *A, const unsigned char *B,
                   size_t Index);

/// Element \p Index for a failure report: exact integers, floats as double.
protocol::FailureValue elemValue(ElemType T, const unsigned char *Data,
                                 size_t Index);

} // namespace optiml

#endif // OPTIML_RUNTIME_ELEMACCESS_H
