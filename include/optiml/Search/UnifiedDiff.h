//===- UnifiedDiff.h - what a step changed ----------------------*- C++ -*-===//
//
// The report shows each accepted step as a unified diff. The line matching
// is LLVM's Myers diff (llvm/Transforms/Utils/LongestCommonSequence.h,
// header-only), so only the hunk layout is ours. Its memory grows with the
// number of changed lines times the file length, which suits the local
// edits transforms make.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_UNIFIEDDIFF_H
#define OPTIML_SEARCH_UNIFIEDDIFF_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace optiml {

/// The unified diff from \p Old to \p New with \p Context lines around each
/// change; empty when the texts are equal.
std::string unifiedDiff(llvm::StringRef Old, llvm::StringRef New,
                        llvm::StringRef OldName, llvm::StringRef NewName,
                        unsigned Context = 3);

} // namespace optiml

#endif // OPTIML_SEARCH_UNIFIEDDIFF_H
