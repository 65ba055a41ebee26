//===- PragmaScanner.h - find `#pragma optiml` lines ----------*- C++ -*-===//
//
// Clang ignores pragmas it does not know, so the marks are recovered from the
// main file's text with Clang's raw lexer (which skips comments and string
// literals). A mark's clauses may continue over backslash-newlines.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_PRAGMASCANNER_H
#define OPTIML_ANALYSIS_PRAGMASCANNER_H

#include "clang/Basic/LangOptions.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace optiml {

class PragmaScanner {
public:
  struct Pragma {
    unsigned Offset; ///< Offset of the '#' in the buffer.
    unsigned Line, Column;
    std::string Clauses; ///< Text after "optiml", continuations joined.
  };

  /// Every `#pragma optiml` directive of \p Buffer, in order.
  static std::vector<Pragma> scan(llvm::StringRef Buffer,
                                  const clang::LangOptions &LangOpts);

private:
  static std::string restOfDirective(llvm::StringRef Buffer, unsigned From);
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_PRAGMASCANNER_H
