//===- MarkLaunchRewrite.h - keep the spec's launch in step ---*- C++ -*-===//
//
// The kernel spec in the `#pragma optiml` mark says how the kernel is
// launched for verification and timing. A new block size must change it as
// it changes the launch sites, or the candidate would be measured with the
// old geometry.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_MARKLAUNCHREWRITE_H
#define OPTIML_REWRITE_MARKLAUNCHREWRITE_H

#include "optiml/Analysis/Legality/LaunchShape.h"
#include "optiml/Rewrite/EditSet.h"

#include "clang/AST/Decl.h"

namespace optiml {

/// Rewrites the block(...) clause of \p Kernel's mark to \p New and each
/// grid(...) dimension whose block changes for the new B: `(N + B - 1) / B`
/// and `ceil_div(N, B)` keep their form, any other G becomes
/// `ceil_div((G) * B, New)` (the same threads, rounded up to whole blocks;
/// the kernel guards its indices), and dimensions in \p AnyGrid (grid-stride
/// loops) that are not ceil-divs stay. A kernel without a mark needs
/// nothing; one without launches in the file gets a note telling how its
/// callers must now launch it. NotApplicable when the mark's block is not
/// integer literals.
llvm::Error rewriteMarkLaunch(const clang::FunctionDecl &Kernel,
                              const Dim3 &New,
                              const std::array<bool, 3> &AnyGrid,
                              EditSet &Edits, clang::ASTContext &Ctx);

/// Rewrites the block(...) clause of \p Kernel's mark to \p New for a
/// kernel whose blocks now each compute a tile of \p Tile elements per
/// dimension (the old block covered one element per thread): each grid
/// dimension d becomes ceil(N / Tile[d]) in the forms rewriteMarkLaunch
/// keeps, any other G `ceil_div((G) * B, Tile[d])`. Callers outside the file
/// get the same note. NotApplicable as rewriteMarkLaunch.
llvm::Error rewriteMarkTiles(const clang::FunctionDecl &Kernel, const Dim3 &New,
                             const Dim3 &Tile, EditSet &Edits,
                             clang::ASTContext &Ctx);

/// Multiplies grid dimension \p Dim of \p Kernel's mark by \p Ways, for
/// a block that stays the same but whose threads now share each element
/// \p Ways ways (warp-per-row): `(N + B - 1) / B` becomes the same form
/// for B / Ways, any other G `ceil_div((G) * B, B / Ways)` when the kernel
/// guards its indices. NotApplicable when the mark's block is not a
/// multiple of \p Ways, or as rewriteMarkGrid.
llvm::Error rewriteMarkGridSpread(const clang::FunctionDecl &Kernel,
                                  unsigned Dim, uint64_t Ways,
                                  EditSet &Edits, clang::ASTContext &Ctx);

/// Rewrites only the block(...) clause of \p Kernel's mark to \p New, for
/// a rewrite that keeps the grid (swap-xy); callers outside the file get
/// the same note. NotApplicable as rewriteMarkLaunch.
llvm::Error rewriteMarkBlock(const clang::FunctionDecl &Kernel, const Dim3 &New,
                             EditSet &Edits, clang::ASTContext &Ctx);

/// Divides grid dimension \p Dim of \p Kernel's mark by \p Factor more,
/// for a block that stays the same (coarsen, vectorize): `(N + B - 1) / B`
/// or `ceil_div(N, B)`, with B the mark's block in \p Dim, becomes the same
/// form for B * Factor; any other G becomes `ceil_div((G) * B, B * Factor)`
/// when the kernel guards its indices. NotApplicable otherwise, or as
/// rewriteMarkLaunch.
llvm::Error rewriteMarkGrid(const clang::FunctionDecl &Kernel, unsigned Dim,
                            uint64_t Factor, EditSet &Edits,
                            clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_REWRITE_MARKLAUNCHREWRITE_H
