//===- AnthropicDialect.cpp - POST {base}/messages -----------------------===//
//
// The Anthropic Messages API: the system prompt is a field of its own, the
// key goes in `x-api-key`, and the answer is a list of content blocks whose
// text blocks are joined. A schema goes out as the input schema of the one
// tool the model must call (tool_choice), so that the answer arrives as that
// tool's input, a JSON object of the schema's shape.
//
//===----------------------------------------------------------------------===//

#include "optiml/LLM/HttpChatClient.h"
#include "optiml/Support/Error.h"

using namespace optiml;
using nlohmann::json;

static std::vector<std::string> headers(const LlmConfig &Config) {
  std::vector<std::string> H = {"anthropic-version: 2023-06-01"};
  if (!Config.Key.empty())
    H.push_back("x-api-key: " + Config.Key.reveal());
  return H;
}

static json body(const ChatRequest &R, const LlmConfig &Config) {
  json B = {
      {"model", Config.Model},
      {"max_tokens", R.MaxTokens},
      {"temperature", R.Temperature},
      {"messages", json::array({{{"role", "user"}, {"content", R.User}}})}};
  if (!R.System.empty())
    B["system"] = R.System;
  if (R.Schema) {
    B["tools"] = json::array(
        {{{"name", R.SchemaName},
          {"description", "Give the answer, in the shape of its schema."},
          {"input_schema", *R.Schema}}});
    B["tool_choice"] = {{"type", "tool"}, {"name", R.SchemaName}};
  }
  return B;
}

static llvm::Expected<ChatAnswer> parse(const json &Response) {
  if (!Response.contains("content") || !Response["content"].is_array())
    return makeError(ErrorKind::BadInput, "no \"content\" list");
  ChatAnswer A;
  for (const json &Block : Response["content"]) {
    if (!Block.is_object())
      continue;
    std::string Type = Block.value("type", "");
    if (Type == "text" && Block.contains("text") && Block["text"].is_string())
      A.Text += Block["text"].get<std::string>();
    // The answer given as the input of the tool the schema became.
    if (Type == "tool_use" && Block.contains("input") &&
        Block["input"].is_object())
      A.Text += Block["input"].dump();
  }
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

const ChatDialect &optiml::anthropicDialect() {
  static const ChatDialect D{"anthropic", "/messages", headers, body, parse};
  return D;
}
