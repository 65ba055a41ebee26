//===- SiteIndex.h - the sites of one parsed source -----------*- C++ -*-===//
//
// Resolves stable site names against a parse: a step written against the
// original file is re-resolved on each rewritten, re-parsed result.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_SITEINDEX_H
#define OPTIML_TRANSFORM_SITEINDEX_H

#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace optiml {

class SiteIndex {
public:
  /// Indexes the kernels defined in the main file, in source order, their
  /// loops and their buffers.
  explicit SiteIndex(clang::ASTContext &Ctx);

  /// The sites of \p Kind, of one kernel when \p Kernel is not empty (its
  /// name or qualified name).
  std::vector<Site> sites(SiteKind Kind, llvm::StringRef Kernel = "") const;

  /// The site named \p Name; a BadInput error listing the sites otherwise.
  llvm::Expected<Site> find(SiteKind Kind, llvm::StringRef Name) const;

  const std::vector<const clang::FunctionDecl *> &kernels() const {
    return Kernels;
  }

private:
  void indexBuffers();

  std::vector<const clang::FunctionDecl *> Kernels;
  std::vector<Site> Loops;
  std::vector<Site> Buffers;
};

/// Whether \p Kernel is named \p Name (simple or qualified).
bool kernelNamed(const clang::FunctionDecl &Kernel, llvm::StringRef Name);

} // namespace optiml

#endif // OPTIML_TRANSFORM_SITEINDEX_H
