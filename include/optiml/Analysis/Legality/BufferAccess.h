//===- BufferAccess.h - which buffers a kernel writes -----------*- C++ -*-===//
//
// Follows each pointer parameter through the local pointers derived from it
// (`float *row = out + r * n;`) to the loads and stores made through them.
// Anything it cannot follow (the pointer passed to a call, its address
// taken, stored to memory) counts as a write, so "read-only" is a proof.
// An element's address given to a CUDA load intrinsic (`__ldg(&p[i])`) is
// a read: those take a pointer to const and only load. So is the source of
// an asynchronous copy to shared memory (`__pipeline_memcpy_async(&s[j],
// &p[i], 4)`, or `p` itself with a zero fill), which pipeline-shared
// writes.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_BUFFERACCESS_H
#define OPTIML_ANALYSIS_LEGALITY_BUFFERACCESS_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace optiml {

class BufferAccess {
public:
  BufferAccess(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

  /// Whether memory reached through parameter \p P may be written.
  bool mayWrite(const clang::ParmVarDecl &P) const {
    return Written.contains(&P);
  }
  /// The first expression (in the order visited) through which \p P may be
  /// written: the store, or the use the analysis cannot follow (a call
  /// argument, an address taken); null when \p P is only read.
  const clang::Expr *writeOf(const clang::ParmVarDecl &P) const {
    return Written.lookup(&P);
  }
  /// Where a pointer parameter is assigned a value based on another
  /// parameter (`a = b + 1;`), which makes the two alias inside the kernel;
  /// null when none is.
  const clang::Expr *crossAssignment() const { return CrossAssignment; }

private:
  using Roots = llvm::SmallPtrSet<const clang::ParmVarDecl *, 2>;

  bool visit(const clang::DeclRefExpr &Ref);
  bool flowInto(const clang::VarDecl &To, const Roots &From,
                const clang::Expr &Where);
  void markWritten(const Roots &From, const clang::Expr &Where);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::VarDecl *, Roots> BasedOn;
  llvm::DenseMap<const clang::ParmVarDecl *, const clang::Expr *> Written;
  const clang::Expr *CrossAssignment = nullptr;
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_BUFFERACCESS_H
