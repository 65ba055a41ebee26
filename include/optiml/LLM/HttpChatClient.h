//===- HttpChatClient.h - a chat endpoint over HTTP ------------*- C++ -*-===//
//
// What OpenAI-compatible and Anthropic endpoints share: POST a JSON body,
// retry a bounded number of times with exponential backoff (honouring
// Retry-After) on 429, 5xx, time-outs and dropped connections, and turn
// every other failure into one line without the key in it. The subclasses
// only say how a request is written and an answer is read.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_HTTPCHATCLIENT_H
#define OPTIML_LLM_HTTPCHATCLIENT_H

#include "optiml/LLM/ChatClient.h"
#include "optiml/LLM/HttpClient.h"
#include "optiml/LLM/LlmConfig.h"

#include <vector>

namespace optiml {

class HttpChatClient : public ChatClient {
public:
  explicit HttpChatClient(const LlmConfig &Config) : Config(Config) {}

  llvm::Expected<ChatAnswer> complete(const ChatRequest &R) override;
  std::string endpoint() const override { return Config.BaseUrl; }
  std::string model() const override { return Config.Model; }

protected:
  virtual std::string url() const = 0;
  virtual std::vector<std::string> headers() const = 0;
  virtual nlohmann::json body(const ChatRequest &R) const = 0;
  /// The answer in \p Response (a 2xx body), or a message saying what is
  /// missing from it.
  virtual llvm::Expected<ChatAnswer>
  parse(const nlohmann::json &Response) const = 0;
  /// The endpoint's own words in an error body, when it has some.
  static std::string errorMessage(const std::string &Body);

  const LlmConfig &Config;

private:
  llvm::Error failure(const HttpResponse &R, unsigned Attempts) const;
};

/// Whether another try may succeed where \p R failed.
bool retryable(const HttpResponse &R);

} // namespace optiml

#endif // OPTIML_LLM_HTTPCHATCLIENT_H
