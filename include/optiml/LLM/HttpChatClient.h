//===- HttpChatClient.h - a chat endpoint over HTTP ------------*- C++ -*-===//
//
// What OpenAI-compatible and Anthropic endpoints share: POST a JSON body,
// retry a bounded number of times with exponential backoff (honouring
// Retry-After) on 429, 5xx, time-outs and dropped connections, ask once
// more without the JSON schema when the endpoint refuses it (400, 422), and
// turn every other failure into one line without the key in it. A ChatDialect
// says how one provider's request is written and its answer read.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_HTTPCHATCLIENT_H
#define OPTIML_LLM_HTTPCHATCLIENT_H

#include "optiml/LLM/ChatClient.h"
#include "optiml/LLM/HttpClient.h"
#include "optiml/LLM/LlmConfig.h"

#include <vector>

namespace optiml {

/// How one provider's API is spoken: where a request goes, its headers and
/// body, and how a 2xx answer is read (or what is missing from it).
struct ChatDialect {
  const char *Provider;
  const char *Path; ///< Appended to the configured base URL.
  std::vector<std::string> (*Headers)(const LlmConfig &Config);
  nlohmann::json (*Body)(const ChatRequest &R, const LlmConfig &Config);
  llvm::Expected<ChatAnswer> (*Parse)(const nlohmann::json &Response);
};

/// POST {base}/chat/completions: OpenAI, vLLM, llama.cpp's server, Ollama.
const ChatDialect &openAiDialect();
/// POST {base}/messages: the Anthropic Messages API.
const ChatDialect &anthropicDialect();

class HttpChatClient : public ChatClient {
public:
  HttpChatClient(const LlmConfig &Config, const ChatDialect &Dialect)
      : Config(Config), Dialect(Dialect) {}

  llvm::Expected<ChatAnswer> complete(const ChatRequest &R) override;
  std::string provider() const override { return Dialect.Provider; }
  std::string endpoint() const override { return Config.BaseUrl; }
  std::string model() const override { return Config.Model; }

private:
  /// The endpoint's own words in an error body, when it has some.
  static std::string errorMessage(const std::string &Body);
  llvm::Error failure(const HttpResponse &R, unsigned Attempts) const;
  /// POSTs \p Req, retrying what may succeed later; the last response.
  HttpResponse post(const ChatRequest &Req, unsigned &Attempts) const;
  /// \p R, a 2xx answer, read as a chat completion.
  llvm::Expected<ChatAnswer> read(const HttpResponse &R) const;

  const LlmConfig &Config;
  const ChatDialect &Dialect;
};

/// A 2xx answer.
bool succeeded(const HttpResponse &R);
/// Whether another try may succeed where \p R failed.
bool retryable(const HttpResponse &R);

} // namespace optiml

#endif // OPTIML_LLM_HTTPCHATCLIENT_H
