//===- ExchangeWriter.h - the text of a store exchange ----------*- C++ -*-===//
//
// The second form of stage-shared, for a buffer that is stored to rather
// than read in a loop: see StageSharedLegality::analyzeExchange.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_STAGESHARED_EXCHANGEWRITER_H
#define OPTIML_TRANSFORMS_STAGESHARED_EXCHANGEWRITER_H

#include "optiml/Rewrite/EditSet.h"
#include "transforms/StageShared/StageSharedLegality.h"

namespace optiml {

/// The edits that route \p Plan's store through a padded shared tile.
llvm::Expected<EditSet> writeExchange(const ExchangePlan &Plan,
                                      clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_STAGESHARED_EXCHANGEWRITER_H
