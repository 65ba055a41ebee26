//===- BlockUniform.h - values a whole block agrees on ---------*- C++ -*-===//
//
// A barrier, or a warp-wide shuffle, is only safe where every thread of
// the block gets to it. Code under `if (row >= rows) return;` with
// `row = blockIdx.x` qualifies: the test has one answer for the whole
// block, so either all threads leave or none does. This tells such tests
// from ones that depend on the thread, conservatively: only values built
// from literals, template value parameters, enumerators, blockIdx,
// blockDim, gridDim, kernel parameters and locals that are never changed
// count, never memory reads or calls.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_BLOCKUNIFORM_H
#define OPTIML_ANALYSIS_LEGALITY_BLOCKUNIFORM_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace optiml {

/// Whether every thread of a block of \p Kernel computes the same value
/// for \p E: constants (template value parameters and enumerators too),
/// blockIdx, blockDim and gridDim, parameters of
/// \p Kernel and local variables initialized with such values, neither
/// ever assigned, combined by operators and casts.
bool isBlockUniform(const clang::Expr &E, const clang::FunctionDecl &Kernel,
                    clang::ASTContext &Ctx);

/// Whether \p E has one value for each thread wherever it is evaluated:
/// isBlockUniform's values and threadIdx, so that moving its evaluation
/// within the kernel does not change it.
bool isFixedForThread(const clang::Expr &E, const clang::FunctionDecl &Kernel,
                      clang::ASTContext &Ctx);

/// Whether \p E is threadIdx.x, or a local integer variable of at least 16
/// bits initialized with it and never changed (`int tid = threadIdx.x;`).
bool isThreadX(const clang::Expr &E, const clang::FunctionDecl &Kernel,
               clang::ASTContext &Ctx);

/// Whether every thread of a block that starts \p Kernel reaches \p S
/// together, or none does: the statements around \p S up to the kernel's
/// body are plain blocks, loop pragmas and branches of `if`s whose test is
/// block-uniform.
bool isReachedByWholeBlock(const clang::Stmt &S,
                           const clang::FunctionDecl &Kernel,
                           clang::ASTContext &Ctx);

/// The first `return` of \p Kernel before \p S that some threads of a
/// block may take and others not (isReachedByWholeBlock fails), or null.
const clang::ReturnStmt *
divergentReturnBefore(const clang::Stmt &S, const clang::FunctionDecl &Kernel,
                      clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_BLOCKUNIFORM_H
