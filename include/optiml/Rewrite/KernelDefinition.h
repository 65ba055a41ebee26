//===- KernelDefinition.h - where a kernel is written ----------*- C++ -*-===//
//
// The bytes of the main file that hold one kernel's definition (its
// `template <...>` header included) and of the `#pragma optiml` mark before
// it: a free-form edit replaces the first and inserts helpers before the
// second, and a check of a candidate compares everything else.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_KERNELDEFINITION_H
#define OPTIML_REWRITE_KERNELDEFINITION_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace optiml {

struct KernelDefinition {
  const clang::FunctionDecl *Kernel = nullptr;
  const clang::Decl *Outer = nullptr; ///< The template, or Kernel itself.
  unsigned Begin = 0;                 ///< File offset of its first character.
  unsigned End = 0;                   ///< Just past its closing brace.
  /// Offset of the start of the line holding its `#pragma optiml` mark.
  std::optional<unsigned> MarkLine;

  /// Where new code before the kernel goes: before the mark, if any.
  unsigned insertionPoint() const { return MarkLine ? *MarkLine : Begin; }

  /// The definition of the kernel named \p Name (qualified, or simple when
  /// unambiguous) in the main file of \p Ctx; nothing when there is none.
  static std::optional<KernelDefinition> find(clang::ASTContext &Ctx,
                                              llvm::StringRef Name);
};

/// The __global__ function definitions written in the main file of \p Ctx,
/// in source order (template patterns, not instantiations).
std::vector<const clang::FunctionDecl *>
kernelDefinitions(clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_REWRITE_KERNELDEFINITION_H
