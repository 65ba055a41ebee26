//===- ChatDialectTest.cpp - requests and answers of each provider --------===//

#include "optiml/LLM/HttpChatClient.h"

#include "gtest/gtest.h"

using namespace optiml;
using nlohmann::json;

namespace {

class ChatDialectTest : public ::testing::Test {
protected:
  ChatDialectTest() {
    Config.Model = "m";
    Request.System = "s";
    Request.User = "u";
    Request.Schema = json{{"type", "object"}};
    Request.SchemaName = "proposals";
  }
  LlmConfig Config;
  ChatRequest Request;
};

TEST_F(ChatDialectTest, OpenAiSendsTheSchemaAsAStrictResponseFormat) {
  json B = openAiDialect().Body(Request, Config);
  EXPECT_EQ(B["response_format"]["type"], "json_schema");
  EXPECT_EQ(B["response_format"]["json_schema"]["name"], "proposals");
  EXPECT_EQ(B["response_format"]["json_schema"]["strict"], true);
  EXPECT_EQ(B["response_format"]["json_schema"]["schema"], *Request.Schema);
  Request.Schema.reset();
  EXPECT_FALSE(
      openAiDialect().Body(Request, Config).contains("response_format"));
}

TEST_F(ChatDialectTest, AnthropicMakesTheSchemaTheInputOfTheOneTool) {
  json B = anthropicDialect().Body(Request, Config);
  ASSERT_EQ(B["tools"].size(), 1u);
  EXPECT_EQ(B["tools"][0]["name"], "proposals");
  EXPECT_EQ(B["tools"][0]["input_schema"], *Request.Schema);
  EXPECT_EQ(B["tool_choice"], (json{{"type", "tool"}, {"name", "proposals"}}));
  Request.Schema.reset();
  B = anthropicDialect().Body(Request, Config);
  EXPECT_FALSE(B.contains("tools"));
  EXPECT_FALSE(B.contains("tool_choice"));
}

TEST_F(ChatDialectTest, AnthropicReadsTheToolsInputAsTheAnswer) {
  json Response = {
      {"content", json::array({{{"type", "tool_use"},
                                {"name", "proposals"},
                                {"input", {{"proposals", json::array()}}}}})},
      {"stop_reason", "tool_use"},
      {"usage", {{"input_tokens", 10}, {"output_tokens", 3}}}};
  auto A = anthropicDialect().Parse(Response);
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  EXPECT_EQ(json::parse(A->Text), (json{{"proposals", json::array()}}));
  EXPECT_EQ(A->FinishReason, "tool_use");
  EXPECT_FALSE(A->truncated());
  EXPECT_EQ(A->TokensOut, 3);
}

TEST_F(ChatDialectTest, AnthropicCutOffIsTruncated) {
  json Response = {
      {"content", json::array({{{"type", "text"}, {"text", "{\"pro"}}})},
      {"stop_reason", "max_tokens"}};
  auto A = anthropicDialect().Parse(Response);
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  EXPECT_EQ(A->Text, "{\"pro");
  EXPECT_TRUE(A->truncated());
}

} // namespace
