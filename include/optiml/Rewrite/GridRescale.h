//===- GridRescale.h - keep ceil(N / B) grids covering N -------*- C++ -*-===//
//
// A grid written as ceil(N / B) covers N threads. block-size changes B;
// coarsen and vectorize give each thread F elements, so the grid becomes
// ceil(N / (B * F)). Both rewrite the same launch operands (in place when a
// variable serves only as the launch's grid, inline otherwise) and the
// kernel's `#pragma optiml` mark, so the code lives here once.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_GRIDRESCALE_H
#define OPTIML_REWRITE_GRIDRESCALE_H

#include "optiml/Analysis/Legality/LaunchShape.h"
#include "optiml/Rewrite/EditSet.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace optiml {

/// Whether every use of \p Var is operand \p Index (0 grid, 1 block) of a
/// launch of \p Kernel, or lies in text a rewrite replaces (\p Replaced),
/// so that rewriting its initializer changes nothing else.
bool onlyConfigures(const clang::VarDecl &Var,
                    const clang::FunctionDecl &Kernel, unsigned Index,
                    clang::ASTContext &Ctx,
                    llvm::ArrayRef<clang::SourceRange> Replaced = {});

/// The grid dimensions of \p Shapes that rewriteGrid replaces where they
/// are written (not inline at the launch).
std::vector<clang::SourceRange>
gridTextReplaced(const clang::FunctionDecl &Kernel,
                 llvm::ArrayRef<LaunchShape> Shapes, clang::ASTContext &Ctx);

/// Rewrites the grid of one launch: each dimension d with
/// Shape.GridDims[d] set becomes ceil(N / Divisor[d]), in N's own form
/// (`(N + D - 1) / D` or `ceil_div(N, D)`). Variables already rewritten are
/// in \p Done.
llvm::Error rewriteGrid(const clang::FunctionDecl &Kernel,
                        const LaunchShape &Shape, const Dim3 &Divisor,
                        EditSet &Edits,
                        llvm::SmallPtrSetImpl<const clang::VarDecl *> &Done,
                        clang::ASTContext &Ctx);

/// Rewrites the block operand of one launch to \p New: the arguments of
/// the `dim3` variable it names when only launches read that variable
/// (or text in \p Replaced, the grid text a rewrite replaces), else the
/// operand itself. Variables already rewritten are in \p Done.
llvm::Error
rewriteLaunchBlock(const clang::FunctionDecl &Kernel, const LaunchShape &Shape,
                   const Dim3 &New, llvm::ArrayRef<clang::SourceRange> Replaced,
                   EditSet &Edits,
                   llvm::SmallPtrSetImpl<const clang::VarDecl *> &Done,
                   clang::ASTContext &Ctx);

/// Divides grid dimension \p Dim of every launch in \p Shapes (checked by
/// dividableLaunches) and of \p Kernel's mark by \p Factor more:
/// ceil(N / B) becomes ceil(N / (B * Factor)).
llvm::Error divideGrids(const clang::FunctionDecl &Kernel,
                        llvm::ArrayRef<LaunchShape> Shapes, unsigned Dim,
                        uint64_t Factor, EditSet &Edits,
                        clang::ASTContext &Ctx);

/// Multiplies grid dimension \p Dim of every launch in \p Shapes (checked
/// by dividableLaunches) and of \p Kernel's mark by \p Ways, for blocks
/// whose threads now share each element \p Ways ways: ceil(N / B) becomes
/// ceil(N / (B / Ways)). NotApplicable when a block is not a multiple of
/// \p Ways.
llvm::Error spreadGrids(const clang::FunctionDecl &Kernel,
                        llvm::ArrayRef<LaunchShape> Shapes, unsigned Dim,
                        uint64_t Ways, EditSet &Edits, clang::ASTContext &Ctx);

/// Gives each element along x a block of its own, of \p Block threads (a
/// row that a block now shares): every launch in \p Shapes (checked by
/// dividableLaunches) and \p Kernel's mark get block \p Block, and their
/// grid in x, ceil(N / B), becomes N.
llvm::Error blockPerElement(const clang::FunctionDecl &Kernel,
                            llvm::ArrayRef<LaunchShape> Shapes,
                            const Dim3 &Block, EditSet &Edits,
                            clang::ASTContext &Ctx);

/// The edits of a transform that gives each thread \p Factor times the work
/// along \p Dim: \p Kernel's body becomes \p Body, and every grid (launches
/// and mark) is divided by \p Factor along \p Dim (a factor of 1 leaves
/// them alone).
llvm::Expected<EditSet> rewriteBodyAndGrids(const clang::FunctionDecl &Kernel,
                                            std::string Body,
                                            llvm::ArrayRef<LaunchShape> Shapes,
                                            unsigned Dim, uint64_t Factor,
                                            clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_REWRITE_GRIDRESCALE_H
