//===- ElementLayout.h - a buffer element as the runner sees it -*- C++ -*-===//
//
// The runner fills and compares numbers. A buffer of `float`, `int` or
// `__half` holds one number per element; a buffer of `float2`, `uchar4`,
// `half2` or of a plain struct holds several, its fields. The runner walks
// such a buffer as a run of lanes of one size, so the fields must all have
// one size and no padding between them: `struct {float t; int id;}` and
// `double2` can be marked, `struct {double t; int id;}` (4 bytes of padding)
// cannot, and is refused with what is missing.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_ELEMENTLAYOUT_H
#define OPTIML_SPEC_ELEMENTLAYOUT_H

#include "optiml/IR/KernelInfo.h"
#include "optiml/Spec/ElementType.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace optiml {

struct LaneField {
  std::string Name; ///< As C names it from the element: "x", "pos.y".
  ElementType Type;
};

struct ElementLayout {
  /// The most fields an element may have (the runner's device check).
  static constexpr size_t MaxFields = 64;

  ElementType Lane;              ///< The first field's type; one number: its.
  std::vector<LaneField> Fields; ///< Empty when the element is one number.

  size_t lanes() const { return Fields.empty() ? 1 : Fields.size(); }

  /// The fields that \p Name selects: the field itself, or every field of
  /// a nested struct or array (`pos` selects `pos.x`, `pos.y`, `pos.z`).
  std::vector<const LaneField *> select(llvm::StringRef Name) const;

  /// The element of buffer parameter \p P (its pointee): a number type the
  /// runner knows, a struct the compiler laid out (P.Fields), or, for a
  /// template argument put in by the spec, one of CUDA's vector types by
  /// name. An error at \p Pos names the parameter and what is missing.
  static llvm::Expected<ElementLayout> of(const ParamInfo &P,
                                          const SourcePos &Pos);
};

} // namespace optiml

#endif // OPTIML_SPEC_ELEMENTLAYOUT_H
