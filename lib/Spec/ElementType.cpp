//===- ElementType.cpp - C types the runner can fill and compare ---------===//

#include "optiml/Spec/ElementType.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <limits>

using namespace optiml;
using llvm::StringRef;

bool ElementType::holds(double V) const {
  if (!std::isfinite(V))
    return false;
  if (IsInteger && V != std::trunc(V))
    return false;
  return V >= Min && V <= Max;
}

template <typename T> static ElementType make(StringRef Name) {
  bool IsInteger = std::numeric_limits<T>::is_integer;
  return ElementType{Name.str(), IsInteger, unsigned(sizeof(T)),
                     IsInteger ? double(std::numeric_limits<T>::min())
                               : -double(std::numeric_limits<T>::max()),
                     double(std::numeric_limits<T>::max())};
}

static std::optional<ElementType> fromName(StringRef Name) {
  if (Name == "f32")
    return make<float>(Name);
  if (Name == "f64")
    return make<double>(Name);
  if (Name == "i8")
    return make<int8_t>(Name);
  if (Name == "u8")
    return make<uint8_t>(Name);
  if (Name == "i16")
    return make<int16_t>(Name);
  if (Name == "u16")
    return make<uint16_t>(Name);
  if (Name == "i32")
    return make<int32_t>(Name);
  if (Name == "u32")
    return make<uint32_t>(Name);
  if (Name == "i64")
    return make<int64_t>(Name);
  if (Name == "u64")
    return make<uint64_t>(Name);
  return std::nullopt;
}

/// Words of a builtin integer type in a canonical order, so that "long
/// unsigned int" and "unsigned long" meet; qualifiers dropped.
static std::string canonicalWords(StringRef CType) {
  static constexpr StringRef Dropped[] = {"const", "volatile", "restrict",
                                          "__restrict", "__restrict__"};
  llvm::SmallVector<StringRef, 4> Words;
  CType.split(Words, ' ', -1, /*KeepEmpty=*/false);
  std::string Sign, Size, Base;
  for (StringRef W : Words) {
    W.consume_front("::");
    W.consume_front("std::");
    if (llvm::is_contained(Dropped, W))
      continue;
    if (W == "signed" || W == "unsigned")
      Sign = W.str();
    else if (W == "long" || W == "short")
      Size += Size.empty() ? W.str() : " " + W.str();
    else
      Base += Base.empty() ? W.str() : " " + W.str();
  }
  if (Base.empty() && (!Sign.empty() || !Size.empty()))
    Base = "int";
  if (Base == "int" && Sign == "signed")
    Sign.clear();
  if (Base == "char" && Sign == "signed")
    Base = "schar", Sign.clear();
  std::string Out = Sign;
  for (const std::string &Part : {Size, Base})
    if (!Part.empty())
      Out += Out.empty() ? Part : " " + Part;
  return Out;
}

std::optional<ElementType> ElementType::fromC(StringRef CType) {
  std::string Spaced = CType.str();
  for (char &C : Spaced)
    if (C == '\t' || C == '\n')
      C = ' ';
  static const std::pair<StringRef, StringRef> Table[] = {
      {"float", "f32"},
      {"double", "f64"},
      {"int", "i32"},
      {"int32_t", "i32"},
      {"unsigned int", "u32"},
      {"uint32_t", "u32"},
      {"long int", "i64"},
      {"long long int", "i64"},
      {"int64_t", "i64"},
      {"ptrdiff_t", "i64"},
      {"unsigned long int", "u64"},
      {"unsigned long long int", "u64"},
      {"uint64_t", "u64"},
      {"size_t", "u64"},
      {"char", "i8"},
      {"schar", "i8"},
      {"int8_t", "i8"},
      {"unsigned char", "u8"},
      {"uint8_t", "u8"},
      {"short int", "i16"},
      {"int16_t", "i16"},
      {"unsigned short int", "u16"},
      {"uint16_t", "u16"},
  };
  std::string Key = canonicalWords(Spaced);
  for (const auto &[C, Runner] : Table)
    if (Key == C)
      return fromName(Runner);
  return std::nullopt;
}
