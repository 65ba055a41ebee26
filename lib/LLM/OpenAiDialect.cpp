//===- OpenAiDialect.cpp - POST {base}/chat/completions ------------------===//
//
// The OpenAI chat completions protocol, which OpenAI, vLLM, llama.cpp's
// server and Ollama all speak. A schema goes out as `response_format`
// (json_schema), which constrains the answer where the server supports it
// and is ignored where it does not; the parser stays lenient either way.
//
//===----------------------------------------------------------------------===//

#include "optiml/LLM/HttpChatClient.h"
#include "optiml/Support/Error.h"

using namespace optiml;
using nlohmann::json;

static std::vector<std::string> headers(const LlmConfig &Config) {
  if (Config.Key.empty()) // A local server needs none.
    return {};
  return {"Authorization: Bearer " + Config.Key.reveal()};
}

static json body(const ChatRequest &R, const LlmConfig &Config) {
  json Messages = json::array();
  if (!R.System.empty())
    Messages.push_back({{"role", "system"}, {"content", R.System}});
  Messages.push_back({{"role", "user"}, {"content", R.User}});
  json B = {{"model", Config.Model},
            {"messages", Messages},
            {"temperature", R.Temperature},
            {"max_tokens", R.MaxTokens}};
  if (R.Schema)
    B["response_format"] = {
        {"type", "json_schema"},
        {"json_schema",
         {{"name", R.SchemaName}, {"schema", *R.Schema}, {"strict", true}}}};
  return B;
}

static int64_t count(const json &Usage, const char *Key) {
  return Usage.is_object() && Usage.contains(Key) && Usage[Key].is_number()
             ? Usage[Key].get<int64_t>()
             : 0;
}

static llvm::Expected<ChatAnswer> parse(const json &Response) {
  if (!Response.contains("choices") || !Response["choices"].is_array() ||
      Response["choices"].empty())
    return makeError(ErrorKind::BadInput, "no \"choices\"");
  const json &Choice = Response["choices"][0];
  if (!Choice.is_object() || !Choice.contains("message") ||
      !Choice["message"].is_object())
    return makeError(ErrorKind::BadInput, "no \"choices[0].message\"");
  const json &Message = Choice["message"];
  ChatAnswer A;
  if (Message.contains("content") && Message["content"].is_string())
    A.Text = Message["content"].get<std::string>();
  else if (!Message.contains("content") || !Message["content"].is_null())
    return makeError(ErrorKind::BadInput,
                     "\"choices[0].message.content\" is not text");
  if (Choice.contains("finish_reason") && Choice["finish_reason"].is_string())
    A.FinishReason = Choice["finish_reason"].get<std::string>();
  if (Response.contains("usage")) {
    A.TokensIn = count(Response["usage"], "prompt_tokens");
    A.TokensOut = count(Response["usage"], "completion_tokens");
  }
  if (Response.contains("model") && Response["model"].is_string())
    A.Model = Response["model"].get<std::string>();
  return A;
}

const ChatDialect &optiml::openAiDialect() {
  static const ChatDialect D{"openai", "/chat/completions", headers, body,
                             parse};
  return D;
}
