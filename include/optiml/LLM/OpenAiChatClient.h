//===- OpenAiChatClient.h - POST {base}/chat/completions -------*- C++ -*-===//
//
// The OpenAI chat completions protocol, which OpenAI, vLLM, llama.cpp's
// server and Ollama all speak. A schema goes out as `response_format`
// (json_schema), which constrains the answer where the server supports it
// and is ignored where it does not; the parser stays lenient either way.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_OPENAICHATCLIENT_H
#define OPTIML_LLM_OPENAICHATCLIENT_H

#include "optiml/LLM/HttpChatClient.h"

namespace optiml {

class OpenAiChatClient : public HttpChatClient {
public:
  using HttpChatClient::HttpChatClient;

  std::string provider() const override { return "openai"; }

protected:
  std::string url() const override;
  std::vector<std::string> headers() const override;
  nlohmann::json body(const ChatRequest &R) const override;
  llvm::Expected<ChatAnswer>
  parse(const nlohmann::json &Response) const override;
};

} // namespace optiml

#endif // OPTIML_LLM_OPENAICHATCLIENT_H
