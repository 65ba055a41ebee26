//===- ChatClient.h - one question to a language model ---------*- C++ -*-===//
//
// The interface the proposer talks to: a system and a user message in, the
// model's text and what it cost out. Real endpoints (OpenAI-compatible,
// Anthropic) implement it over HTTP with bounded retries; the recording
// client wraps one with the database's cache and the run's budget.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_CHATCLIENT_H
#define OPTIML_LLM_CHATCLIENT_H

#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace optiml {

struct ChatRequest {
  std::string System;
  std::string User;
  double Temperature = 0.2;
  unsigned MaxTokens = 2048;
  /// A JSON schema the answer must follow, where the endpoint can enforce
  /// one; the prompt asks for the same shape anyway.
  std::optional<nlohmann::json> Schema;
  std::string SchemaName = "answer";
  std::string PromptVersion; ///< "propose/1", for the accounting.
  unsigned Sample = 0;       ///< Index among samples of one prompt.
};

struct ChatAnswer {
  std::string Text;
  std::string FinishReason; ///< "stop", "length", "end_turn", ...
  int64_t TokensIn = 0, TokensOut = 0;
  double Seconds = 0;
  double Cost = 0; ///< Estimated; 0 when the prices are unknown.
  std::string Model;
  unsigned Attempts = 1;
  bool Cached = false; ///< From the database, no call made.
  /// How the answer's shape was asked for: "schema" (the endpoint was
  /// given the request's schema to enforce) or "prompt" (the prompt alone
  /// asked: no schema, or the endpoint refused it); empty when cached.
  std::string Mode;
  /// The endpoint's words when it refused the request's schema on this
  /// call (the answer then came without one).
  std::string SchemaRefused;

  /// The model stopped because it ran out of tokens.
  bool truncated() const {
    return FinishReason == "length" || FinishReason == "max_tokens";
  }
};

class ChatClient {
public:
  virtual ~ChatClient();

  /// One answer to \p R. An endpoint that cannot be reached, refuses, or
  /// answers something that is not a chat completion is a BadInput error
  /// with one line saying which.
  virtual llvm::Expected<ChatAnswer> complete(const ChatRequest &R) = 0;

  /// "openai", "anthropic": part of the cache key.
  virtual std::string provider() const = 0;
  /// The base URL, never with a key in it.
  virtual std::string endpoint() const = 0;
  virtual std::string model() const = 0;
};

} // namespace optiml

#endif // OPTIML_LLM_CHATCLIENT_H
