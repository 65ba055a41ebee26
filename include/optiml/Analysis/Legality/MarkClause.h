//===- MarkClause.h - one clause of a kernel's optiml mark -----*- C++ -*-===//
//
// Legality reads a few clauses of the `#pragma optiml kernel ...` mark as
// facts about how the kernel is run and checked: its block(...), its
// tolerance(...). The spec parser (lib/Spec) is the mark's authority; this
// only splits the text of one clause, for the analyses below it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_MARKCLAUSE_H
#define OPTIML_ANALYSIS_LEGALITY_MARKCLAUSE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// The top-level arguments of clause \p Name (`block`, `tolerance`) in a
/// mark's \p Clauses text, trimmed; nothing when the mark has no such
/// clause or its parentheses do not close.
std::optional<std::vector<std::string>> markClauseArgs(llvm::StringRef Clauses,
                                                       llvm::StringRef Name);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_MARKCLAUSE_H
