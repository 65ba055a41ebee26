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

ElementType ElementType::of(protocol::ElemType T) {
  return protocol::visitElemType(T, [T](auto V) {
    using Ty = decltype(V);
    if constexpr (protocol::IsNarrowFloat<Ty>::value) {
      double Max = protocol::narrowFloatMax<Ty>();
      return ElementType{
          T, protocol::elemTypeName(T), false, unsigned(sizeof(Ty)), -Max, Max};
    } else {
      bool IsInteger = std::numeric_limits<Ty>::is_integer;
      return ElementType{T,
                         protocol::elemTypeName(T),
                         IsInteger,
                         unsigned(sizeof(Ty)),
                         IsInteger ? double(std::numeric_limits<Ty>::min())
                                   : -double(std::numeric_limits<Ty>::max()),
                         double(std::numeric_limits<Ty>::max())};
    }
  });
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
  using protocol::ElemType;
  static const std::pair<StringRef, ElemType> Table[] = {
      {"float", ElemType::F32},
      {"double", ElemType::F64},
      {"int", ElemType::I32},
      {"int32_t", ElemType::I32},
      {"unsigned int", ElemType::U32},
      {"uint32_t", ElemType::U32},
      {"long int", ElemType::I64},
      {"long long int", ElemType::I64},
      {"int64_t", ElemType::I64},
      {"ptrdiff_t", ElemType::I64},
      {"unsigned long int", ElemType::U64},
      {"unsigned long long int", ElemType::U64},
      {"uint64_t", ElemType::U64},
      {"size_t", ElemType::U64},
      {"char", ElemType::I8},
      {"schar", ElemType::I8},
      {"int8_t", ElemType::I8},
      {"unsigned char", ElemType::U8},
      {"uint8_t", ElemType::U8},
      {"short int", ElemType::I16},
      {"int16_t", ElemType::I16},
      {"unsigned short int", ElemType::U16},
      {"uint16_t", ElemType::U16},
      // The toolkit's narrow floats (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h),
      // under their own names and their aliases.
      {"__half", ElemType::F16},
      {"half", ElemType::F16},
      {"__nv_half", ElemType::F16},
      {"__nv_bfloat16", ElemType::BF16},
      {"nv_bfloat16", ElemType::BF16},
      {"__nv_fp8_e4m3", ElemType::F8E4M3},
      {"__nv_fp8_e5m2", ElemType::F8E5M2},
  };
  std::string Key = canonicalWords(Spaced);
  if (Key == "bool" || Key == "_Bool") {
    // One byte that holds 0 or 1: drawn and checked in that range.
    ElementType B = of(ElemType::U8);
    B.IsBool = true;
    B.Max = 1;
    return B;
  }
  for (const auto &[C, Type] : Table)
    if (Key == C)
      return of(Type);
  return std::nullopt;
}
