//===- FromPromptAnswerTest.cpp - reading --from-prompt's answers --------===//

#include "optiml/LLM/FromPromptAnswer.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

TEST(FromPromptAnswerTest, InterfaceFromTheFirstCodeBlock) {
  auto I = FromPromptAnswer::interface(
      "Here:\n```json\n{}\n```\n```cuda\n#pragma optiml kernel sizes(N = 1)\n"
      "__global__ void k(float *y) {}\n```\n");
  ASSERT_TRUE(bool(I)) << llvm::toString(I.takeError());
  EXPECT_EQ(*I, "#pragma optiml kernel sizes(N = 1)\n"
                "__global__ void k(float *y) {}\n");
  EXPECT_TRUE(bool(FromPromptAnswer::interface(
      "#pragma optiml kernel sizes(N = 1)\n__global__ void k(float *y) {}")));
  auto None = FromPromptAnswer::interface("I cannot do that.");
  ASSERT_FALSE(bool(None));
  EXPECT_NE(llvm::toString(None.takeError()).find("no ```cuda block"),
            std::string::npos);
}

TEST(FromPromptAnswerTest, StrategiesAreCappedAndNeedNameAndPlan) {
  auto S = FromPromptAnswer::strategies(
      "Sure.\n{\"strategies\": [{\"name\": \"a\", \"plan\": \"p\"}, "
      "{\"name\": \"\", \"plan\": \"q\"}, {\"name\": \"b\", \"plan\": \"r\"}, "
      "{\"name\": \"c\", \"plan\": \"s\"}]}",
      2);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  ASSERT_EQ(S->size(), 2u);
  EXPECT_EQ((*S)[0].Name, "a");
  EXPECT_EQ((*S)[1].Plan, "r");
  auto Bare =
      FromPromptAnswer::strategies("[{\"name\": \"a\", \"plan\": \"p\"}]", 3);
  ASSERT_TRUE(bool(Bare));
  EXPECT_EQ(Bare->size(), 1u);
  auto Empty = FromPromptAnswer::strategies("{\"strategies\": []}", 3);
  ASSERT_FALSE(bool(Empty));
  EXPECT_NE(llvm::toString(Empty.takeError()).find("no strategy"),
            std::string::npos);
  EXPECT_FALSE(bool(FromPromptAnswer::strategies("no json here", 3)));
}

TEST(FromPromptAnswerTest, KernelWithLaunchBlockOrLine) {
  auto A = FromPromptAnswer::kernel(
      "```cuda\n__global__ void k(float *y) { y[0] = 1; }\n```\n"
      "```launch\ngrid(1) block(32)\n```\n");
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  EXPECT_EQ(A->Code, "__global__ void k(float *y) { y[0] = 1; }\n");
  EXPECT_EQ(A->Launch, "grid(1) block(32)");
  auto Line = FromPromptAnswer::kernel(
      "```cuda\n__global__ void k(float *y) {}\n```\n**Launch:** `grid(N) "
      "block(1)`\n");
  ASSERT_TRUE(bool(Line));
  EXPECT_EQ(Line->Launch, "grid(N) block(1)");
  auto NoLaunch =
      FromPromptAnswer::kernel("```cuda\n__global__ void k(float *y) {}\n```");
  ASSERT_TRUE(bool(NoLaunch));
  EXPECT_TRUE(NoLaunch->Launch.empty());
  EXPECT_FALSE(bool(FromPromptAnswer::kernel("```launch\ngrid(1)\n```")));
}

TEST(FromPromptAnswerTest, TheSchemasJSONFormsAreRead) {
  auto I = FromPromptAnswer::interface(
      R"js({"interface": "#pragma optiml kernel sizes(N = 1)\n__global__ void k(float *y) {}"})js");
  ASSERT_TRUE(bool(I)) << llvm::toString(I.takeError());
  EXPECT_EQ(*I, "#pragma optiml kernel sizes(N = 1)\n"
                "__global__ void k(float *y) {}");
  // Code a model fenced inside the JSON string comes out of its fence.
  auto K = FromPromptAnswer::kernel(
      R"js({"code": "```cuda\n__global__ void k(float *y) { y[0] = 1; }\n```", "launch": "grid(1) block(32)"})js");
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(K->Code, "__global__ void k(float *y) { y[0] = 1; }\n");
  EXPECT_EQ(K->Launch, "grid(1) block(32)");
  // An empty code field is no kernel.
  EXPECT_FALSE(
      bool(FromPromptAnswer::kernel(R"js({"code": "", "launch": ""})js")));
}

TEST(FromPromptAnswerTest, SchemasAreStrict) {
  for (const nlohmann::json &S :
       {FromPromptAnswer::interfaceSchema(), FromPromptAnswer::kernelSchema(),
        FromPromptAnswer::strategiesSchema(),
        FromPromptAnswer::strategiesSchema()["properties"]["strategies"]
                                            ["items"]}) {
    EXPECT_EQ(S["type"], "object");
    EXPECT_EQ(S["additionalProperties"], false);
    EXPECT_EQ(S["required"].size(), S["properties"].size()) << S.dump();
  }
  EXPECT_EQ(FromPromptAnswer::kernelSchema()["required"],
            nlohmann::json::array({"code", "launch"}));
}

} // namespace
