//===- AnthropicChatClient.cpp - POST {base}/messages --------------------===//

#include "optiml/LLM/AnthropicChatClient.h"
#include "optiml/Support/Error.h"

using namespace optiml;
using nlohmann::json;

std::string AnthropicChatClient::url() const {
  return Config.BaseUrl + "/messages";
}

std::vector<std::string> AnthropicChatClient::headers() const {
  std::vector<std::string> H = {"anthropic-version: 2023-06-01"};
  if (!Config.Key.empty())
    H.push_back("x-api-key: " + Config.Key.reveal());
  return H;
}

json AnthropicChatClient::body(const ChatRequest &R) const {
  json B = {
      {"model", Config.Model},
      {"max_tokens", R.MaxTokens},
      {"temperature", R.Temperature},
      {"messages", json::array({{{"role", "user"}, {"content", R.User}}})}};
  if (!R.System.empty())
    B["system"] = R.System;
  return B;
}

llvm::Expected<ChatAnswer>
AnthropicChatClient::parse(const json &Response) const {
  if (!Response.contains("content") || !Response["content"].is_array())
    return makeError(ErrorKind::BadInput, "no \"content\" list");
  ChatAnswer A;
  for (const json &Block : Response["content"])
    if (Block.is_object() && Block.value("type", "") == "text" &&
        Block.contains("text") && Block["text"].is_string())
      A.Text += Block["text"].get<std::string>();
  if (Response.contains("stop_reason") && Response["stop_reason"].is_string())
    A.FinishReason = Response["stop_reason"].get<std::string>();
  if (Response.contains("usage") && Response["usage"].is_object()) {
    const json &U = Response["usage"];
    A.TokensIn = U.value("input_tokens", int64_t(0));
    A.TokensOut = U.value("output_tokens", int64_t(0));
  }
  if (Response.contains("model") && Response["model"].is_string())
    A.Model = Response["model"].get<std::string>();
  return A;
}
