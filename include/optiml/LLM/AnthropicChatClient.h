//===- AnthropicChatClient.h - POST {base}/messages ------------*- C++ -*-===//
//
// The Anthropic Messages API: the system prompt is a field of its own, the
// key goes in `x-api-key`, and the answer is a list of content blocks whose
// text blocks are joined. It has no JSON-schema mode here, so the prompt's
// instructions and the lenient parser carry the format.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_ANTHROPICCHATCLIENT_H
#define OPTIML_LLM_ANTHROPICCHATCLIENT_H

#include "optiml/LLM/HttpChatClient.h"

namespace optiml {

class AnthropicChatClient : public HttpChatClient {
public:
  using HttpChatClient::HttpChatClient;

  std::string provider() const override { return "anthropic"; }

protected:
  std::string url() const override;
  std::vector<std::string> headers() const override;
  nlohmann::json body(const ChatRequest &R) const override;
  llvm::Expected<ChatAnswer>
  parse(const nlohmann::json &Response) const override;
};

} // namespace optiml

#endif // OPTIML_LLM_ANTHROPICCHATCLIENT_H
