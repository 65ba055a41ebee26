//===- FromPromptAnswer.h - answers to --from-prompt -------*- C++ -*-===//
//
// The answers of the --from-prompt prompts, read as leniently as proposals
// (AnswerParser). Each prompt asks for JSON of its schema, which endpoints
// that enforce one (OpenAI's strict response_format, vLLM, llama.cpp's
// server, Anthropic's tool input) keep to: `{"interface": ...}` (the spec's
// mark and the kernel's declaration), `{"strategies": [...]}`, and for a
// kernel `{"code": ..., "launch": "grid(...) block(...)"}`. A model left to
// itself may answer with fenced blocks instead: the interface or the kernel
// in a ```cuda block and the launch in a ```launch block or on a `launch:`
// line; those are read too. What cannot be read is an error whose one-line
// message goes back to the model in the repair round.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_FROMPROMPTANSWER_H
#define OPTIML_LLM_FROMPROMPTANSWER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace optiml {

/// One implementation plan, before any code.
struct Strategy {
  std::string Name;
  std::string Plan;
};

/// A kernel as written: helpers and definition, and how to launch it.
struct KernelAnswer {
  std::string Code;
  std::string Launch; ///< Empty: the interface's launch.
};

class FromPromptAnswer {
public:
  /// The code of the interface: the first fenced block of code, or the
  /// whole text when it has no fence but a `#pragma optiml` line.
  static llvm::Expected<std::string> interface(llvm::StringRef Text);
  /// Up to \p Count strategies from `{"strategies": [{"name", "plan"}]}`
  /// or a bare list; none is an error.
  static llvm::Expected<std::vector<Strategy>> strategies(llvm::StringRef Text,
                                                          unsigned Count);
  /// The kernel's code and launch.
  static llvm::Expected<KernelAnswer> kernel(llvm::StringRef Text);

  /// The JSON schemas of the answers, in the strict form (every property
  /// required, no others).
  static nlohmann::json interfaceSchema();
  static nlohmann::json strategiesSchema();
  /// A kernel's (or the reference's) code and launch.
  static nlohmann::json kernelSchema();
};

} // namespace optiml

#endif // OPTIML_LLM_FROMPROMPTANSWER_H
