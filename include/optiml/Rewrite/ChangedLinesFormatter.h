//===- ChangedLinesFormatter.h - format what a search changed -*- C++ -*-===//
//
// Rewrites are written for correctness, not looks: a kernel that --optimize
// writes should read like the rest of the user's file. Only the lines that
// differ from the original are reformatted, with the style of the file's
// .clang-format (LLVM's without one), so the rest stays byte for byte.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_CHANGEDLINESFORMATTER_H
#define OPTIML_REWRITE_CHANGEDLINESFORMATTER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace optiml {

/// \p Result with its lines that are not in \p Original (a line diff: each
/// run of added or changed lines; an unchanged line between two changes
/// stays) reformatted in the style that applies to \p StylePath (the
/// user's source). Formatting that would change more than whitespace, or
/// that fails, leaves \p Result as it is: the verified text wins.
/// \p StyleName: "file" (the .clang-format that applies to \p StylePath,
/// LLVM's without one), "none" (\p Result unchanged) or a clang-format
/// style (`LLVM`, `Google`, `{BasedOnStyle: LLVM, ColumnLimit: 100}`).
std::string formatChangedLines(llvm::StringRef Original, llvm::StringRef Result,
                               llvm::StringRef StylePath,
                               llvm::StringRef StyleName = "file");

/// BadInput when \p StyleName is none of those.
llvm::Error checkFormatStyle(llvm::StringRef StyleName);

} // namespace optiml

#endif // OPTIML_REWRITE_CHANGEDLINESFORMATTER_H
