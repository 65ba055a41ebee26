//===- ElemType.h - Element types of kernel arguments -----------*- C++ -*-===//
//
// Part of OptiML. Buffers travel through the runner as untyped bytes; these
// helpers give typed access to one element at a time, which is all that input
// generation, comparison and reporting need.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_ELEMTYPE_H
#define OPTIML_RUNTIME_ELEMTYPE_H

#include "Json.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace optiml {

enum class ElemType { F32, F64, I8, U8, I16, U16, I32, U32, I64, U64 };

/// Parses "f32", "u8", ...; returns false for an unknown name.
bool parseElemType(const std::string &Name, ElemType &Out);
const char *elemTypeName(ElemType T);
size_t elemSize(ElemType T);
bool isFloatType(ElemType T);

/// Element \p Index of a packed array, as a double (inexact above 2^53 for
/// 64-bit integers, which only matters for error magnitudes in reports).
double loadAsDouble(ElemType T, const unsigned char *Data, size_t Index);

/// Stores \p V into element \p Index; integer types round to nearest and
/// clamp to their range, NaN becomes 0.
void storeDouble(ElemType T, double V, unsigned char *Data, size_t Index);

/// Stores \p V exactly when representable; integer types clamp.
void storeInt(ElemType T, int64_t V, unsigned char *Data, size_t Index);

/// True when element \p Index of \p A and \p B has the same bytes.
bool elemBitsEqual(ElemType T, const unsigned char *A, const unsigned char *B,
                   size_t Index);

/// Element \p Index as JSON: exact integers; finite floats as numbers and
/// non-finite ones as "nan", "inf" or "-inf" (JSON has no such numbers).
Json elemToJson(ElemType T, const unsigned char *Data, size_t Index);

/// JSON for a double, with the same non-finite spelling as elemToJson.
Json doubleToJson(double V);

} // namespace optiml

#endif // OPTIML_RUNTIME_ELEMTYPE_H
