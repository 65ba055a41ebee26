//===- RecordingChatClientTest.cpp - cache, accounting, budget -----------===//

#include "optiml/LLM/RecordingChatClient.h"
#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

/// Answers "answer N" for the N-th call, with fixed token counts.
class CountingClient : public ChatClient {
public:
  llvm::Expected<ChatAnswer> complete(const ChatRequest &R) override {
    ++Calls;
    ChatAnswer A;
    A.Text = "answer " + std::to_string(Calls);
    A.FinishReason = "stop";
    A.TokensIn = 1000;
    A.TokensOut = 200;
    A.Seconds = 0.5;
    return A;
  }
  std::string provider() const override { return "openai"; }
  std::string endpoint() const override { return "http://x/v1"; }
  std::string model() const override { return "m"; }
  unsigned Calls = 0;
};

/// An endpoint that takes no schema: it answers without one, as the HTTP
/// client does after its refusal, and says so.
class SchemaRefusingClient : public CountingClient {
public:
  llvm::Expected<ChatAnswer> complete(const ChatRequest &R) override {
    WithSchema.push_back(R.Schema.has_value());
    auto A = CountingClient::complete(R);
    A->Mode = "prompt";
    if (R.Schema)
      A->SchemaRefused = "HTTP 400: unknown field response_format";
    return A;
  }
  std::vector<bool> WithSchema;
};

class RecordingChatClientTest : public ::testing::Test {
protected:
  RecordingChatClientTest() : Db(llvm::cantFail(Database::open(":memory:"))) {
    Config.Provider = LlmProvider::OpenAI;
    Config.BaseUrl = "http://x/v1";
    Config.Model = "m";
    Config.PriceIn = 3; // Per million tokens.
    Config.PriceOut = 15;
    Request.System = "s";
    Request.User = "u";
    Request.PromptVersion = "propose/1";
  }
  LlmConfig Config;
  Database Db;
  CountingClient Inner;
  ChatRequest Request;
};

TEST_F(RecordingChatClientTest, RecordsCallsAndAnswersRepeatsFromTheCache) {
  RecordingChatClient C(Config, &Inner, Db);
  auto First = C.complete(Request);
  ASSERT_TRUE(bool(First));
  EXPECT_FALSE(First->Cached);
  EXPECT_DOUBLE_EQ(First->Cost, (1000 * 3 + 200 * 15) / 1e6);
  auto Again = C.complete(Request);
  ASSERT_TRUE(bool(Again));
  EXPECT_TRUE(Again->Cached);
  EXPECT_EQ(Again->Text, "answer 1");
  EXPECT_EQ(Inner.Calls, 1u);

  // Another sample, temperature or prompt is another question.
  ChatRequest Other = Request;
  Other.Sample = 1;
  EXPECT_EQ(llvm::cantFail(C.complete(Other)).Text, "answer 2");
  Other = Request;
  Other.Temperature = 0.9;
  EXPECT_EQ(llvm::cantFail(C.complete(Other)).Text, "answer 3");
  Other = Request;
  Other.User = "u2";
  EXPECT_EQ(llvm::cantFail(C.complete(Other)).Text, "answer 4");

  EXPECT_EQ(C.usage().Calls, 4u);
  EXPECT_EQ(C.usage().CacheHits, 1u);
  EXPECT_EQ(C.usage().TokensIn, 4000);
  auto Rows = llvm::cantFail(Db.llmCalls());
  ASSERT_EQ(Rows.size(), 4u);
  EXPECT_EQ(Rows[0].PromptVersion, "propose/1");
  EXPECT_EQ(Rows[0].Model, "m");
  EXPECT_EQ(Rows[0].TokensOut, 200);
  EXPECT_DOUBLE_EQ(Rows[0].LatencySeconds, 0.5);
  EXPECT_EQ(Rows[1].Sample, 1);
}

TEST_F(RecordingChatClientTest, AnEndpointThatRefusedASchemaGetsNoneAgain) {
  SchemaRefusingClient Refusing;
  RecordingChatClient C(Config, &Refusing, Db);
  Request.Schema = nlohmann::json{{"type", "object"}};
  ASSERT_TRUE(bool(C.complete(Request)));
  EXPECT_EQ(
      llvm::cantFail(Db.schemaRefusal("http://x/v1", "m")),
      std::optional<std::string>("HTTP 400: unknown field response_format"));
  // Another model at the same endpoint is asked with its schema.
  EXPECT_EQ(llvm::cantFail(Db.schemaRefusal("http://x/v1", "m2")),
            std::nullopt);
  ChatRequest Next = Request;
  Next.Sample = 1;
  ASSERT_TRUE(bool(C.complete(Next)));
  EXPECT_EQ(Refusing.WithSchema, (std::vector<bool>{true, false}));
}

TEST_F(RecordingChatClientTest, ReplayNeverCalls) {
  {
    RecordingChatClient Recorder(Config, &Inner, Db);
    ASSERT_TRUE(bool(Recorder.complete(Request)));
  }
  Config.Replay = true;
  RecordingChatClient C(Config, nullptr, Db);
  auto Hit = C.complete(Request);
  ASSERT_TRUE(bool(Hit));
  EXPECT_EQ(Hit->Text, "answer 1");
  ChatRequest Other = Request;
  Other.Sample = 2;
  auto Miss = C.complete(Other);
  ASSERT_FALSE(bool(Miss));
  EXPECT_EQ(llvm::toString(Miss.takeError()),
            "--llm-replay: no recorded answer for this prompt (propose/1, "
            "model m at http://x/v1, sample 2); run once without "
            "--llm-replay to record it");
  EXPECT_EQ(Inner.Calls, 1u);
}

TEST_F(RecordingChatClientTest, BudgetsStopARunBeforeTheCall) {
  Config.MaxCalls = 2;
  RecordingChatClient C(Config, &Inner, Db);
  for (unsigned S = 0; S < 2; ++S) {
    ChatRequest R = Request;
    R.Sample = S;
    ASSERT_TRUE(bool(C.complete(R)));
  }
  ChatRequest Third = Request;
  Third.Sample = 5;
  auto Over = C.complete(Third);
  ASSERT_FALSE(bool(Over));
  EXPECT_EQ(llvm::toString(Over.takeError()),
            "the LLM budget is spent: 2 calls made (--llm-max-calls=2)");
  // A cached answer costs nothing and is still given.
  EXPECT_TRUE(bool(C.complete(Request)));

  Config.MaxCalls = 0;
  Config.MaxCost = 0.005; // One call costs 0.006.
  RecordingChatClient Costly(Config, &Inner, Db);
  EXPECT_TRUE(bool(Costly.complete(Third)));
  ChatRequest Fourth = Request;
  Fourth.Sample = 6;
  auto Spent = Costly.complete(Fourth);
  ASSERT_FALSE(bool(Spent));
  EXPECT_EQ(llvm::toString(Spent.takeError()),
            "the LLM budget is spent: an estimated 0.0060 spent "
            "(--llm-max-cost=0.005)");
}

TEST_F(RecordingChatClientTest, TheCacheKeyCoversEndpointAndModel) {
  RecordingChatClient C(Config, &Inner, Db);
  std::string Key = C.cacheKey(Request);
  LlmConfig Other = Config;
  Other.Model = "m2";
  EXPECT_NE(RecordingChatClient(Other, &Inner, Db).cacheKey(Request), Key);
  Other = Config;
  Other.BaseUrl = "http://y/v1";
  EXPECT_NE(RecordingChatClient(Other, &Inner, Db).cacheKey(Request), Key);
  EXPECT_EQ(RecordingChatClient(Config, &Inner, Db).cacheKey(Request), Key);
}

} // namespace
