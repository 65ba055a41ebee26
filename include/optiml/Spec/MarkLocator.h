//===- MarkLocator.h - file positions of a mark's clause text -*- C++ -*-===//
//
// A mark's clauses reach us as one string, continuation lines joined and
// blanks collapsed (PragmaScanner). Errors must still point into the file,
// so this maps an offset in that string back to the line and column where
// the character was written, by replaying the scanner's joining over the
// source text. Without the source it falls back to the mark's line, with a
// column counted from the mark.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_MARKLOCATOR_H
#define OPTIML_SPEC_MARKLOCATOR_H

#include "optiml/IR/KernelInfo.h"

#include "llvm/ADT/StringRef.h"

#include <utility>
#include <vector>

namespace optiml {

class MarkLocator {
public:
  /// Approximate positions: every clause on the mark's line, the clauses
  /// starting right after "#pragma optiml ".
  explicit MarkLocator(const KernelMark &Mark) : Mark(Mark.Pos) {}

  /// Exact positions when \p Source is the file that holds \p Mark (and
  /// still says what the mark says); approximate ones otherwise.
  MarkLocator(const KernelMark &Mark, llvm::StringRef Source);

  /// Where the character at \p Offset of the clauses text was written.
  SourcePos at(size_t Offset) const;

private:
  void replay(llvm::StringRef Source, size_t From, unsigned Line,
              unsigned Column, llvm::StringRef Clauses);

  SourcePos Mark;
  std::vector<std::pair<unsigned, unsigned>> LineColumn; ///< Per character.
};

} // namespace optiml

#endif // OPTIML_SPEC_MARKLOCATOR_H
