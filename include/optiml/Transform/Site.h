//===- Site.h - where a transform acts ------------------------*- C++ -*-===//
//
// A site is known to users, traces and proposers by its stable name
// ("sgemm" for a kernel, "sgemm/for#0" for a loop); the AST pointers are
// valid only for the parse it was resolved in.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_SITE_H
#define OPTIML_TRANSFORM_SITE_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace optiml {

enum class SiteKind {
  Kernel, ///< Named by the kernel's qualified name.
  Loop,   ///< Named by LoopSiteNamer.
  /// A pointer parameter, in the whole kernel ("transpose/out") or in one
  /// loop ("sgemm/for#0/A").
  Buffer,
};

/// "kernel", "loop" or "buffer", for listings and messages.
llvm::StringRef siteKindName(SiteKind Kind);

struct Site {
  std::string Name;
  const clang::FunctionDecl *Kernel = nullptr;
  const clang::Stmt *Loop = nullptr; ///< Set for loop sites.
  /// Set for buffer sites; Loop is set too when the site is in a loop.
  const clang::ParmVarDecl *Buffer = nullptr;

  /// The qualified name of the kernel the site belongs to.
  std::string kernelName() const { return Kernel->getQualifiedNameAsString(); }
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_SITE_H
