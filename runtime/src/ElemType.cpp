//===- ElemType.cpp - Element types of kernel arguments -------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "ElemType.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace optiml {

namespace {

/// Calls \p F with a value of the C++ type that represents \p T.
template <typename Fn> decltype(auto) dispatch(ElemType T, Fn &&F) {
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

template <typename T> T load(const unsigned char *Data, size_t Index) {
  T V;
  std::memcpy(&V, Data + Index * sizeof(T), sizeof(T));
  return V;
}

template <typename T> void store(T V, unsigned char *Data, size_t Index) {
  std::memcpy(Data + Index * sizeof(T), &V, sizeof(T));
}

template <typename T> T roundAndClamp(double V) {
  if constexpr (std::is_floating_point_v<T>) {
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
  if constexpr (std::is_floating_point_v<T>) {
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

bool parseElemType(const std::string &Name, ElemType &Out) {
  static const struct {
    const char *Name;
    ElemType Type;
  } Table[] = {{"f32", ElemType::F32}, {"f64", ElemType::F64},
               {"i8", ElemType::I8},   {"u8", ElemType::U8},
               {"i16", ElemType::I16}, {"u16", ElemType::U16},
               {"i32", ElemType::I32}, {"u32", ElemType::U32},
               {"i64", ElemType::I64}, {"u64", ElemType::U64}};
  for (const auto &Entry : Table) {
    if (Name == Entry.Name) {
      Out = Entry.Type;
      return true;
    }
  }
  return false;
}

const char *elemTypeName(ElemType T) {
  switch (T) {
  case ElemType::F32:
    return "f32";
  case ElemType::F64:
    return "f64";
  case ElemType::I8:
    return "i8";
  case ElemType::U8:
    return "u8";
  case ElemType::I16:
    return "i16";
  case ElemType::U16:
    return "u16";
  case ElemType::I32:
    return "i32";
  case ElemType::U32:
    return "u32";
  case ElemType::I64:
    return "i64";
  case ElemType::U64:
    return "u64";
  }
  return "?";
}

size_t elemSize(ElemType T) {
  return dispatch(T, [](auto V) { return sizeof(V); });
}

bool isFloatType(ElemType T) {
  return T == ElemType::F32 || T == ElemType::F64;
}

double loadAsDouble(ElemType T, const unsigned char *Data, size_t Index) {
  return dispatch(T, [&](auto V) {
    return static_cast<double>(load<decltype(V)>(Data, Index));
  });
}

void storeDouble(ElemType T, double V, unsigned char *Data, size_t Index) {
  dispatch(T, [&](auto Tag) {
    store(roundAndClamp<decltype(Tag)>(V), Data, Index);
  });
}

void storeInt(ElemType T, int64_t V, unsigned char *Data, size_t Index) {
  dispatch(T,
           [&](auto Tag) { store(clampInt<decltype(Tag)>(V), Data, Index); });
}

bool elemBitsEqual(ElemType T, const unsigned char *A, const unsigned char *B,
                   size_t Index) {
  size_t Size = elemSize(T);
  return std::memcmp(A + Index * Size, B + Index * Size, Size) == 0;
}

Json doubleToJson(double V) {
  if (std::isnan(V))
    return "nan";
  if (std::isinf(V))
    return V > 0 ? "inf" : "-inf";
  return V;
}

Json elemToJson(ElemType T, const unsigned char *Data, size_t Index) {
  return dispatch(T, [&](auto Tag) -> Json {
    using Ty = decltype(Tag);
    Ty V = load<Ty>(Data, Index);
    if constexpr (std::is_floating_point_v<Ty>)
      return doubleToJson(static_cast<double>(V));
    else if constexpr (std::is_signed_v<Ty>)
      return static_cast<int64_t>(V);
    else
      return static_cast<uint64_t>(V);
  });
}

} // namespace optiml
