//===- ElemType.h - The element types the runner knows ----------*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md). Buffers and scalars
// cross the process boundary as bytes of one of ten C types, spelled f32 f64
// i8 u8 i16 u16 i32 u32 i64 u64 in plans. The tool maps a parameter's C type
// to one of them (Spec/ElementType.h); the runner fills and compares buffers
// by it. This is the one list of them.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_ELEMTYPE_H
#define OPTIML_PROTOCOL_ELEMTYPE_H

#include "optiml/Protocol/NamedEnum.h"

#include <cstddef>
#include <cstdint>

namespace optiml::protocol {

enum class ElemType { F32, F64, I8, U8, I16, U16, I32, U32, I64, U64 };

inline constexpr ElemType AllElemTypes[] = {
    ElemType::F32, ElemType::F64, ElemType::I8,  ElemType::U8,  ElemType::I16,
    ElemType::U16, ElemType::I32, ElemType::U32, ElemType::I64, ElemType::U64};

/// Calls \p F with a value-initialized object of the C++ type that stores
/// \p T, so that one generic lambda serves every type.
template <typename Fn> decltype(auto) visitElemType(ElemType T, Fn &&F) {
  switch (T) {
  case ElemType::F32:
    return F(float{});
  case ElemType::F64:
    return F(double{});
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
  static constexpr const char *Names[] = {"f32", "f64", "i8",  "u8",  "i16",
                                          "u16", "i32", "u32", "i64", "u64"};
  return Names[static_cast<int>(T)];
}

inline std::optional<ElemType> parseElemType(std::string_view Name) {
  return parseNamed(Name, AllElemTypes, elemTypeName);
}

inline size_t elemSize(ElemType T) {
  return visitElemType(T, [](auto V) { return sizeof(V); });
}

inline bool isFloatType(ElemType T) {
  return T == ElemType::F32 || T == ElemType::F64;
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_ELEMTYPE_H
