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
/// grid(...) dimension of the form `(N + B - 1) / B` or `ceil_div(N, B)`
/// for the new B. A kernel without a mark needs nothing. NotApplicable when
/// the mark's block is not integer literals or a grid dimension whose block
/// changes is not such a ceil-div.
llvm::Error rewriteMarkLaunch(const clang::FunctionDecl &Kernel,
                              const Dim3 &New, EditSet &Edits,
                              clang::ASTContext &Ctx);

/// Divides grid dimension \p Dim of \p Kernel's mark by \p Factor more,
/// for a block that stays the same (coarsen, vectorize): `(N + B - 1) / B`
/// or `ceil_div(N, B)`, with B the mark's block in \p Dim, becomes the same
/// form for B * Factor. NotApplicable as rewriteMarkLaunch.
llvm::Error rewriteMarkGrid(const clang::FunctionDecl &Kernel, unsigned Dim,
                            uint64_t Factor, EditSet &Edits,
                            clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_REWRITE_MARKLAUNCHREWRITE_H
