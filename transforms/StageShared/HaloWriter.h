//===- HaloWriter.h - the text of a stencil's halo tile ---------*- C++ -*-===//
//
// The third form of stage-shared, for a read-only buffer whose neighbour
// reads a block shares: see StageSharedLegality::analyzeHalo.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_STAGESHARED_HALOWRITER_H
#define OPTIML_TRANSFORMS_STAGESHARED_HALOWRITER_H

#include "optiml/Rewrite/EditSet.h"
#include "transforms/StageShared/StageSharedLegality.h"

namespace optiml {

/// The edits that load \p Plan's tile with its halo before the first read
/// and turn every read into a read of the tile.
llvm::Expected<EditSet> writeHalo(const HaloPlan &Plan, clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_STAGESHARED_HALOWRITER_H
