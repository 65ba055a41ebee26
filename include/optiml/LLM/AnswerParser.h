//===- AnswerParser.h - proposals out of a model's text --------*- C++ -*-===//
//
// Models answer in many shapes: the JSON asked for, JSON inside a ```json
// block or after a sentence, a bare list, or a kernel in a ```cuda block.
// The parser is lenient about the shape and strict about the content: each
// item becomes a RawProposal or a note saying why it could not, and a
// fenced block of code is an edit whatever the prompt asked for.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_ANSWERPARSER_H
#define OPTIML_LLM_ANSWERPARSER_H

#include "optiml/LLM/Proposal.h"

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <optional>

#include <string>
#include <vector>

namespace optiml {

struct ParsedAnswer {
  std::vector<RawProposal> Proposals;
  std::vector<std::string> Notes; ///< What could not be read, and why.
};

/// A fenced code block: ```lang ... ```.
struct CodeFence {
  std::string Language; ///< Lower case; empty for a bare fence.
  std::string Body;
  bool Closed = true;
};

class AnswerParser {
public:
  /// Reads \p Text; \p Truncated says the model ran out of tokens.
  static ParsedAnswer parse(llvm::StringRef Text, bool Truncated);

  /// The first JSON object or array in \p Text: all of it, a ```json
  /// block, or the span from the first `{` (or `[`) to the last `}` (or
  /// `]`).
  static std::optional<nlohmann::json> findJSON(llvm::StringRef Text);
  /// A closed fence of C, C++ or CUDA code (or a bare one).
  static bool isCode(const CodeFence &F);
  /// The fenced blocks of \p Text, in order.
  static std::vector<CodeFence> fences(llvm::StringRef Text);
};

} // namespace optiml

#endif // OPTIML_LLM_ANSWERPARSER_H
