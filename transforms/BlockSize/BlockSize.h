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

#include "transforms/BlockSize/BlockSizeLegality.h"
#include "optiml/Transform/Transform.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace optiml {

class BlockSize : public Transform {
public:
  using Transform::Transform;

  /// A common shape for the dimensions the kernel indexes in, other than
  /// the one it is launched with.
  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;
  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  llvm::Expected<EditSet> emit(const clang::FunctionDecl &K,
                               const BlockSizePlan &Plan, const Dim3 &New,
                               clang::ASTContext &Ctx) const;
  /// One launch's edits; variables already rewritten are in \p Done.
  /// \p Replaced: the grid text the rewrite replaces, where a block
  /// variable may be read without pinning its old value.
  llvm::Error rewriteLaunch(const clang::FunctionDecl &Kernel,
                            const LaunchShape &Shape, const Dim3 &New,
                            llvm::ArrayRef<clang::SourceRange> Replaced,
                            EditSet &Edits,
                            llvm::SmallPtrSetImpl<const clang::VarDecl *> &Done,
                            clang::ASTContext &Ctx) const;
  llvm::Error rewriteBlock(const clang::FunctionDecl &Kernel,
                           const LaunchShape &Shape, const Dim3 &New,
                           llvm::ArrayRef<clang::SourceRange> Replaced,
                           EditSet &Edits,
                           llvm::SmallPtrSetImpl<const clang::VarDecl *> &Done,
                           clang::ASTContext &Ctx) const;

};

/// The factory Transforms.def registers; \p D is BlockSize.json.
std::unique_ptr<Transform> createBlockSize(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_BLOCKSIZE_BLOCKSIZE_H
