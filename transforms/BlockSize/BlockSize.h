//===- BlockSize.h - retune a kernel's block, at every launch -*- C++ -*-===//
//
// Rewrites every launch of a kernel to a new block (x, y, z) and rescales
// each grid dimension written as ceil(N / B) so the same problem stays
// covered. Legal only for kernels that guard their global indices and do
// not share work within a block (BlockSizeLegality).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_BLOCKSIZE_BLOCKSIZE_H
#define OPTIML_TRANSFORMS_BLOCKSIZE_BLOCKSIZE_H

#include "optiml/Analysis/Legality/BlockSizeLegality.h"
#include "optiml/Transform/Transform.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace optiml {

class BlockSize : public Transform {
public:
  BlockSize();

  llvm::StringRef name() const override { return "block-size"; }
  llvm::StringRef summary() const override {
    return "change the block of every launch of a kernel, rescaling the grid";
  }
  SiteKind siteKind() const override { return SiteKind::Kernel; }
  llvm::ArrayRef<ParamSpec> params() const override { return Params; }

  /// A common shape for the dimensions the kernel indexes in, other than
  /// the one it is launched with.
  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;
  llvm::Error check(const Site &S, const ParamValues &P,
                    clang::ASTContext &Ctx) const override;
  llvm::Expected<EditSet> apply(const Site &S, const ParamValues &P,
                                clang::ASTContext &Ctx) const override;

private:
  /// One launch's edits; variables already rewritten are in \p Done.
  llvm::Error rewriteLaunch(const clang::FunctionDecl &Kernel,
                            const LaunchShape &Shape, const Dim3 &New,
                            EditSet &Edits,
                            llvm::SmallPtrSetImpl<const clang::VarDecl *> &Done,
                            clang::ASTContext &Ctx) const;
  llvm::Error rewriteBlock(const clang::FunctionDecl &Kernel,
                           const LaunchShape &Shape, const Dim3 &New,
                           EditSet &Edits,
                           llvm::SmallPtrSetImpl<const clang::VarDecl *> &Done,
                           clang::ASTContext &Ctx) const;

  std::vector<ParamSpec> Params;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_BLOCKSIZE_BLOCKSIZE_H
