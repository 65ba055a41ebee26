//===- ElementType.h - C types the runner can fill and compare -*- C++ -*-===//
//
// The runner allocates, fills and compares buffers by element type, and
// passes scalars by value; it knows the number types of the runner protocol
// (Protocol/ElemType.h). This maps the C spelling of one number type to
// one, with the range a spec's values must fit; vector types and structs
// are several of them (ElementLayout.h).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_ELEMENTTYPE_H
#define OPTIML_SPEC_ELEMENTTYPE_H

#include "optiml/Protocol/ElemType.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace optiml {

struct ElementType {
  protocol::ElemType Type = protocol::ElemType::F32;
  std::string Name; ///< Runner spelling, e.g. "f32".
  bool IsInteger = false;
  unsigned Bytes = 0;
  /// Representable range; for f32/f64 the largest finite magnitudes.
  double Min = 0, Max = 0;
  bool IsBool = false; ///< C's bool: a u8 of 0 or 1.

  /// Whether \p V can be stored exactly (integers) or finitely (floats).
  bool holds(double V) const;

  /// The runner type for \p CType ("const float", "unsigned int",
  /// "std::size_t", "__half", ...); none for other types (vector types,
  /// structs, templates).
  /// Qualifiers and `std::` are ignored; `long` is 64-bit (LP64).
  static std::optional<ElementType> fromC(llvm::StringRef CType);

  /// The facts about \p T.
  static ElementType of(protocol::ElemType T);
};

} // namespace optiml

#endif // OPTIML_SPEC_ELEMENTTYPE_H
