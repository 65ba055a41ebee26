//===- ElemAccess.cpp - Typed access to elements of packed buffers --------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "ElemAccess.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace optiml {

using protocol::IsNarrowFloat;
using protocol::visitElemType;

namespace {

// The narrow floats go through the toolkit's own host conversions, which
// round to nearest even and handle subnormals as the device does.

double narrowToDouble(protocol::Half V) {
  __half_raw R;
  R.x = V.Raw;
  return __half2float(__half(R));
}

double narrowToDouble(protocol::BFloat16 V) {
  __nv_bfloat16_raw R;
  R.x = V.Raw;
  return __bfloat162float(__nv_bfloat16(R));
}

double narrowToDouble(protocol::Fp8E4M3 V) {
  __nv_fp8_e4m3 F;
  F.__x = V.Raw;
  return static_cast<float>(F);
}

double narrowToDouble(protocol::Fp8E5M2 V) {
  __nv_fp8_e5m2 F;
  F.__x = V.Raw;
  return static_cast<float>(F);
}

/// \p V rounded to the narrow type \p T; beyond its range, its largest
/// finite value (so generated inputs stay finite).
template <typename T> T narrowFromDouble(double V) {
  double Max = protocol::narrowFloatMax<T>();
  float F = std::isnan(V) ? NAN : static_cast<float>(std::clamp(V, -Max, Max));
  T Out;
  if constexpr (std::is_same_v<T, protocol::Half>)
    Out.Raw = static_cast<__half_raw>(__float2half_rn(F)).x;
  else if constexpr (std::is_same_v<T, protocol::BFloat16>)
    Out.Raw = static_cast<__nv_bfloat16_raw>(__float2bfloat16_rn(F)).x;
  else if constexpr (std::is_same_v<T, protocol::Fp8E4M3>)
    Out.Raw = __nv_fp8_e4m3(F).__x;
  else
    Out.Raw = __nv_fp8_e5m2(F).__x;
  return Out;
}

template <typename T> double asDouble(T V) {
  if constexpr (IsNarrowFloat<T>::value)
    return narrowToDouble(V);
  else
    return static_cast<double>(V);
}

template <typename T> T load(const unsigned char *Data, size_t Index) {
  T V;
  std::memcpy(&V, Data + Index * sizeof(T), sizeof(T));
  return V;
}

template <typename T> void store(T V, unsigned char *Data, size_t Index) {
  std::memcpy(Data + Index * sizeof(T), &V, sizeof(T));
}

template <typename T> T roundAndClamp(double V) {
  if constexpr (IsNarrowFloat<T>::value) {
    return narrowFromDouble<T>(V);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(V);
  } else {
    if (std::isnan(V))
      return 0;
    double R = std::nearbyint(V);
    // Both limits are exactly representable as doubles (powers of two or
    // small), so comparing against them is exact.
    if (R <= static_cast<double>(std::numeric_limits<T>::lowest()))
      return std::numeric_limits<T>::lowest();
    if (R >= static_cast<double>(std::numeric_limits<T>::max()))
      return std::numeric_limits<T>::max();
    return static_cast<T>(R);
  }
}

template <typename T> T clampInt(int64_t V) {
  if constexpr (IsNarrowFloat<T>::value) {
    return narrowFromDouble<T>(static_cast<double>(V));
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(V);
  } else if constexpr (std::is_unsigned_v<T>) {
    if (V < 0)
      return 0;
    if (static_cast<uint64_t>(V) > std::numeric_limits<T>::max())
      return std::numeric_limits<T>::max();
    return static_cast<T>(V);
  } else {
    if (V < static_cast<int64_t>(std::numeric_limits<T>::lowest()))
      return std::numeric_limits<T>::lowest();
    if (V > static_cast<int64_t>(std::numeric_limits<T>::max()))
      return std::numeric_limits<T>::max();
    return static_cast<T>(V);
  }
}

} // namespace

double loadAsDouble(ElemType T, const unsigned char *Data, size_t Index) {
  return visitElemType(
      T, [&](auto V) { return asDouble(load<decltype(V)>(Data, Index)); });
}

void storeDouble(ElemType T, double V, unsigned char *Data, size_t Index) {
  visitElemType(T, [&](auto Tag) {
    store(roundAndClamp<decltype(Tag)>(V), Data, Index);
  });
}

void storeInt(ElemType T, int64_t V, unsigned char *Data, size_t Index) {
  visitElemType(
      T, [&](auto Tag) { store(clampInt<decltype(Tag)>(V), Data, Index); });
}

bool elemBitsEqual(ElemType T, const unsigned char *A, const unsigned char *B,
                   size_t Index) {
  size_t Size = elemSize(T);
  return std::memcmp(A + Index * Size, B + Index * Size, Size) == 0;
}

void storeScalar(const Arg &A, unsigned char Out[8]) {
  storeValue(A.Type, A.Value, Out);
}

void storeValue(ElemType T, const protocol::ScalarValue &Value,
                unsigned char Out[8]) {
  std::visit(
      [&](auto V) {
        using Ty = decltype(V);
        if constexpr (std::is_same_v<Ty, double>)
          storeDouble(T, V, Out, 0);
        else if constexpr (std::is_same_v<Ty, int64_t>)
          storeInt(T, V, Out, 0);
        else
          std::memcpy(Out, &V, sizeof(V)); // u64: the one unsigned case.
      },
      Value);
}

protocol::FailureValue elemValue(ElemType T, const unsigned char *Data,
                                 size_t Index) {
  return visitElemType(T, [&](auto Tag) -> protocol::FailureValue {
    using Ty = decltype(Tag);
    Ty V = load<Ty>(Data, Index);
    if constexpr (std::is_floating_point_v<Ty> || IsNarrowFloat<Ty>::value)
      return asDouble(V);
    else if constexpr (std::is_signed_v<Ty>)
      return static_cast<int64_t>(V);
    else
      return static_cast<uint64_t>(V);
  });
}

} // namespace optiml
