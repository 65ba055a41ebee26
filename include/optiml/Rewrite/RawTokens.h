//===- RawTokens.h - tokens of CUDA text without a parse -------*- C++ -*-===//
//
// A model's answer is text that may not parse at all, and a candidate file
// must be judged before it is trusted to parse: Clang's raw lexer gives
// its tokens (comments and string contents skipped, macros unexpanded) and
// its preprocessor directives, so the checks that read names and `#define`s
// never search text.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_RAWTOKENS_H
#define OPTIML_REWRITE_RAWTOKENS_H

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/TokenKinds.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace optiml {

struct RawToken {
  clang::tok::TokenKind Kind;
  std::string Text; ///< As written (identifiers: their name).
  unsigned Offset;  ///< Of its first character in the text.
  unsigned End;     ///< Just past its last character.
  bool StartsLine;  ///< First token of a (logical) line.
  bool InDirective; ///< Part of a `#...` line, the `#` included.
};

/// A preprocessor directive line: `#define N 4` is {"define", "#define N 4"}.
struct RawDirective {
  std::string Name; ///< "define", "include", "pragma", ...
  std::string Text; ///< The tokens, joined by single spaces.
  unsigned Offset;
};

class RawTokens {
public:
  /// Lexes \p Text as CUDA C++.
  explicit RawTokens(llvm::StringRef Text);

  const std::vector<RawToken> &tokens() const { return Tokens; }
  std::vector<RawDirective> directives() const;
  /// Every token, joined by single spaces (a line break around directive
  /// lines): equal for two texts that differ only in layout and comments.
  std::string normalized() const;

  /// The language options used for CUDA text here.
  static clang::LangOptions cudaLangOptions();

private:
  std::vector<RawToken> Tokens;
};

} // namespace optiml

#endif // OPTIML_REWRITE_RAWTOKENS_H
