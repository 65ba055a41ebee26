//===- ElemType.h - The element types the runner knows ----------*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md). Buffers and scalars
// cross the process boundary as bytes of one of fourteen number types,
// spelled f32 f64 f16 bf16 f8e4m3 f8e5m2 i8 u8 i16 u16 i32 u32 i64 u64 in
// plans. The tool maps a parameter's C type to one of them, or a vector type
// or struct to several (Spec/ElementLayout.h); the runner fills and compares
// buffers by them. This is the one list of them.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_ELEMTYPE_H
#define OPTIML_PROTOCOL_ELEMTYPE_H

#include "optiml/Protocol/NamedEnum.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace optiml::protocol {

enum class ElemType {
  F32,
  F64,
  I8,
  U8,
  I16,
  U16,
  I32,
  U32,
  I64,
  U64,
  F16,
  BF16,
  F8E4M3,
  F8E5M2
};

inline constexpr ElemType AllElemTypes[] = {
    ElemType::F32,    ElemType::F64,   ElemType::I8,  ElemType::U8,
    ElemType::I16,    ElemType::U16,   ElemType::I32, ElemType::U32,
    ElemType::I64,    ElemType::U64,   ElemType::F16, ElemType::BF16,
    ElemType::F8E4M3, ElemType::F8E5M2};

/// The storage of a float type narrower than 32 bits: its bits. The tool
/// needs only their size and range, and host C++ has no such types; the
/// runner converts them with the toolkit's own conversions (ElemAccess).
template <typename Bits, int Kind> struct NarrowFloat { Bits Raw; };
using Half = NarrowFloat<uint16_t, 0>;     ///< IEEE binary16 (__half).
using BFloat16 = NarrowFloat<uint16_t, 1>; ///< __nv_bfloat16.
using Fp8E4M3 = NarrowFloat<uint8_t, 2>;   ///< __nv_fp8_e4m3: no infinities.
using Fp8E5M2 = NarrowFloat<uint8_t, 3>;   ///< __nv_fp8_e5m2.

template <typename T> struct IsNarrowFloat : std::false_type {};
template <typename Bits, int Kind>
struct IsNarrowFloat<NarrowFloat<Bits, Kind>> : std::true_type {};

/// The largest finite value of a narrow float type.
template <typename T> constexpr double narrowFloatMax() {
  if constexpr (std::is_same_v<T, Half>)
    return 65504.0;
  else if constexpr (std::is_same_v<T, BFloat16>)
    return 3.3895313892515355e38;
  else if constexpr (std::is_same_v<T, Fp8E4M3>)
    return 448.0;
  else
    return 57344.0;
}

/// Calls \p F with a value-initialized object of the C++ type that stores
/// \p T, so that one generic lambda serves every type.
template <typename Fn> decltype(auto) visitElemType(ElemType T, Fn &&F) {
  switch (T) {
  case ElemType::F32:
    return F(float{});
  case ElemType::F64:
    return F(double{});
  case ElemType::F16:
    return F(Half{});
  case ElemType::BF16:
    return F(BFloat16{});
  case ElemType::F8E4M3:
    return F(Fp8E4M3{});
  case ElemType::F8E5M2:
    return F(Fp8E5M2{});
  case ElemType::I8:
    return F(int8_t{});
  case ElemType::U8:
    return F(uint8_t{});
  case ElemType::I16:
    return F(int16_t{});
  case ElemType::U16:
    return F(uint16_t{});
  case ElemType::I32:
    return F(int32_t{});
  case ElemType::U32:
    return F(uint32_t{});
  case ElemType::I64:
    return F(int64_t{});
  case ElemType::U64:
    break;
  }
  return F(uint64_t{});
}

/// The plan's spelling: "f32", "u8", ...
inline const char *elemTypeName(ElemType T) {
  static constexpr const char *Names[] = {
      "f32", "f64", "i8",  "u8",  "i16",  "u16",    "i32",
      "u32", "i64", "u64", "f16", "bf16", "f8e4m3", "f8e5m2"};
  return Names[static_cast<int>(T)];
}

inline std::optional<ElemType> parseElemType(std::string_view Name) {
  return parseNamed(Name, AllElemTypes, elemTypeName);
}

inline size_t elemSize(ElemType T) {
  return visitElemType(T, [](auto V) { return sizeof(V); });
}

inline bool isFloatType(ElemType T) {
  return T == ElemType::F32 || T == ElemType::F64 || T == ElemType::F16 ||
         T == ElemType::BF16 || T == ElemType::F8E4M3 || T == ElemType::F8E5M2;
}

/// The names of every type, for messages: "f32 f64 ... u64".
inline std::string elemTypeNames() {
  std::string Out;
  for (ElemType T : AllElemTypes)
    Out += (Out.empty() ? "" : " ") + std::string(elemTypeName(T));
  return Out;
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_ELEMTYPE_H
