//===- LlmConfig.h - which model, where, and what it may cost -*- C++ -*-===//
//
// Every setting has one name, spelled three ways: a flag (`--llm-model`),
// an environment variable (`OPTIML_LLM_MODEL`) and a key of a JSON config
// file (`"llm-model"`, file from `--llm-config` or `OPTIML_LLM_CONFIG`);
// a flag beats a variable, which beats the file. The key comes from the
// environment only (OPTIML_LLM_API_KEY, else the provider's own variable).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_LLMCONFIG_H
#define OPTIML_LLM_LLMCONFIG_H

#include "optiml/LLM/ApiKey.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace optiml {

enum class LlmProvider { None, OpenAI, Anthropic };

llvm::StringRef toString(LlmProvider P);

struct LlmConfig {
  LlmProvider Provider = LlmProvider::None;
  std::string BaseUrl; ///< Without the trailing /chat/completions.
  std::string Model;
  double Temperature = 0.2;
  unsigned MaxTokens = 2048;
  double TimeoutSeconds = 120; ///< For one HTTP request.
  unsigned Retries = 3;        ///< Extra tries on 429, 5xx and time-outs.
  double BackoffSeconds = 1;   ///< First wait; doubled on each retry.
  /// Prices per million tokens, for the estimated cost (0: unknown).
  double PriceIn = 0, PriceOut = 0;
  unsigned MaxCalls = 0;  ///< Calls to the endpoint per run; 0: no cap.
  double MaxCost = 0;     ///< Estimated cost per run; 0: no cap.
  bool Replay = false;    ///< Answer from the database's cache only.
  /// Whether requests carry the answer's JSON schema for the endpoint to
  /// enforce (`--llm-schema=auto`, dropped where the endpoint refused it)
  /// or never (`off`: the prompt alone asks for the shape).
  bool SendSchema = true;
  std::string PromptsDir; ///< Empty: the installed prompts.
  ApiKey Key;

  bool enabled() const { return Provider != LlmProvider::None; }

  /// Resolves every setting from \p Flags (name -> value, only those the
  /// user gave), the environment and the config file, then reads the key
  /// from the environment (and removes it from there). Bad values are
  /// BadInput errors naming where they came from.
  static llvm::Expected<LlmConfig>
  resolve(const std::map<std::string, std::string> &Flags);
};

} // namespace optiml

#endif // OPTIML_LLM_LLMCONFIG_H
