//===- StageText.h - text positions and guards for staging ------*- C++ -*-===//
//
// Staging rewrites whole statements as text (a loop becomes a tile loop
// holding two copies of its body), so it works with file offsets, and
// both of its forms turn early returns into guards the same way.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_STAGESHARED_STAGETEXT_H
#define OPTIML_TRANSFORMS_STAGESHARED_STAGETEXT_H

#include "optiml/Analysis/Legality/GuardTerms.h"
#include "optiml/Rewrite/EditSet.h"
#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/ReturnFoldText.h"
#include "transforms/StageShared/GuardSplit.h"

#include "clang/AST/ASTContext.h"

#include <array>
#include <string>

namespace optiml {

/// The spaces and tabs that start the line of \p L.
std::string indentAt(clang::SourceLocation L, const clang::ASTContext &Ctx);

/// The thread's linear index in a block of \p Block: "threadIdx.x",
/// "threadIdx.y * 32 + threadIdx.x", ...; loads stride by the block's size.
std::string blockThreadIndex(const std::array<uint64_t, 3> &Block);

/// Opens the split guards (`if (C) {` becomes `{`), puts the statements
/// beside the loop under their conditions, and makes the initializers that
/// read memory conditional: `(Live) ? init : 0`.
llvm::Error writeGuardSplit(const GuardSplit &Split, EditSet &Edits,
                            const clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_STAGESHARED_STAGETEXT_H
