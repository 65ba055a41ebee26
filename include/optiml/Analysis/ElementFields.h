//===- ElementFields.h - the numbers a buffer's element holds ---*- C++ -*-===//
//
// A buffer of `float2`, `uchar4` or of a struct holds several numbers per
// element. The runner fills and compares numbers, so the spec needs each of
// them with its type and offset as the compiler lays the element out: this
// walks the element's record (nested records and arrays flattened) with
// Clang's record layout. The toolkit's 16- and 8-bit floats are structs of
// one integer in its headers; they are numbers here.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_ELEMENTFIELDS_H
#define OPTIML_ANALYSIS_ELEMENTFIELDS_H

#include "optiml/IR/KernelInfo.h"

#include "clang/AST/ASTContext.h"

namespace optiml {

class ElementFields {
public:
  explicit ElementFields(const clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// Fills \p P's Fields and ElementBytes when \p Element is a complete,
  /// non-dependent struct, or its LayoutProblem when the struct cannot be
  /// split into numbers. Number types and dependent types are left alone.
  void describe(clang::QualType Element, ParamInfo &P) const;

  /// Fills what \p P says of the elements it reaches when they are of type
  /// \p Element (a pointer's pointee, a global table's element): const,
  /// the type as written and as the runner reads it, and the fields.
  void describePointee(clang::QualType Element, ParamInfo &P) const;

  /// \p T with typedefs resolved, and an enum as the integer type that holds
  /// it: what the runner fills and passes.
  std::string canonicalNumber(clang::QualType T) const;

  /// The toolkit's narrow float types (`__half`, `__nv_bfloat16`,
  /// `__nv_fp8_e4m3`, `__nv_fp8_e5m2`): records that are numbers.
  static bool isNarrowFloatRecord(llvm::StringRef Name);

private:
  /// Appends the numbers of \p T at byte \p Offset, named from \p Prefix;
  /// false with \p Problem set when one is not a number.
  bool flatten(clang::QualType T, const std::string &Prefix, uint64_t Offset,
               std::vector<ElementField> &Out, std::string &Problem) const;
  bool flattenRecord(const clang::RecordDecl &R, const std::string &Prefix,
                     uint64_t Offset, std::vector<ElementField> &Out,
                     std::string &Problem) const;

  const clang::ASTContext &Ctx;
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_ELEMENTFIELDS_H
