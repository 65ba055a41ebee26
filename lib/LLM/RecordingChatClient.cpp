//===- RecordingChatClient.cpp - cache, accounting and budget ------------===//

#include "optiml/LLM/RecordingChatClient.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/JsonText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

using namespace optiml;

static std::string sha256(llvm::StringRef Text) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Text)),
                     /*LowerCase=*/true);
}

std::string RecordingChatClient::promptHash(const ChatRequest &R) {
  nlohmann::json J = {{"system", R.System},
                      {"user", R.User},
                      {"schema", R.Schema ? *R.Schema : nlohmann::json()}};
  return sha256(jsonText(J, -1));
}

std::string RecordingChatClient::cacheKey(const ChatRequest &R) const {
  nlohmann::json J = {{"provider", provider()},
                      {"endpoint", endpoint()},
                      {"model", model()},
                      {"prompt", promptHash(R)},
                      {"temperature", R.Temperature},
                      {"max_tokens", R.MaxTokens},
                      {"sample", R.Sample}};
  return sha256(jsonText(J, -1));
}

llvm::Error RecordingChatClient::checkBudget() const {
  if (Config.MaxCalls && Usage.Calls >= Config.MaxCalls)
    return makeError(ErrorKind::BadInput,
                     "the LLM budget is spent: " + llvm::Twine(Usage.Calls) +
                         " calls made (--llm-max-calls=" +
                         llvm::Twine(Config.MaxCalls) + ")");
  if (Config.MaxCost > 0 && Usage.Cost >= Config.MaxCost)
    return makeError(
        ErrorKind::BadInput,
        "the LLM budget is spent: an estimated " +
            llvm::formatv("{0}", llvm::format("%.4f", Usage.Cost)).str() +
            " spent (--llm-max-cost=" +
            llvm::formatv("{0}", llvm::format("%g", Config.MaxCost)).str() +
            ")");
  return llvm::Error::success();
}

static ChatAnswer fromRecord(const LlmCallRecord &R) {
  ChatAnswer A;
  A.Text = R.Answer;
  A.FinishReason = R.FinishReason;
  A.TokensIn = R.TokensIn;
  A.TokensOut = R.TokensOut;
  A.Model = R.Model;
  A.Cached = true;
  return A;
}

llvm::Expected<ChatAnswer> RecordingChatClient::complete(const ChatRequest &R) {
  std::string Key = cacheKey(R);
  auto Hit = Db.findLlmCall(Key);
  if (!Hit)
    return Hit.takeError();
  if (*Hit) {
    ++Usage.CacheHits;
    return fromRecord(**Hit);
  }
  if (Config.Replay || !Inner)
    return makeError(ErrorKind::BadInput,
                     "--llm-replay: no recorded answer for this prompt (" +
                         R.PromptVersion + ", model " + model() + " at " +
                         endpoint() + ", sample " + llvm::Twine(R.Sample) +
                         "); run once without --llm-replay to record it");
  if (llvm::Error E = checkBudget())
    return E;
  // An endpoint that refused a schema once gets none again: asking costs a
  // failed request every time.
  ChatRequest Sent = R;
  if (!Config.SendSchema)
    Sent.Schema.reset();
  if (Sent.Schema) {
    auto Refusal = Db.schemaRefusal(endpoint(), model());
    if (!Refusal)
      return Refusal.takeError();
    if (*Refusal)
      Sent.Schema.reset();
  }
  auto A = Inner->complete(Sent);
  if (!A)
    return A.takeError();
  if (!A->SchemaRefused.empty())
    if (llvm::Error E =
            Db.setSchemaRefusal(endpoint(), model(), A->SchemaRefused))
      return E;
  A->Cost =
      (A->TokensIn * Config.PriceIn + A->TokensOut * Config.PriceOut) / 1e6;
  ++Usage.Calls;
  Usage.TokensIn += A->TokensIn;
  Usage.TokensOut += A->TokensOut;
  Usage.Cost += A->Cost;
  Usage.Seconds += A->Seconds;

  LlmCallRecord Rec;
  Rec.CacheKey = Key;
  Rec.Provider = provider();
  Rec.Endpoint = endpoint();
  Rec.Model = model();
  Rec.PromptVersion = R.PromptVersion;
  Rec.PromptHash = promptHash(R);
  Rec.Temperature = R.Temperature;
  Rec.MaxTokens = R.MaxTokens;
  Rec.Sample = R.Sample;
  Rec.Answer = A->Text;
  Rec.FinishReason = A->FinishReason;
  Rec.TokensIn = A->TokensIn;
  Rec.TokensOut = A->TokensOut;
  Rec.LatencySeconds = A->Seconds;
  Rec.Cost = A->Cost;
  if (auto Id = Db.addLlmCall(Rec); !Id)
    return Id.takeError();
  return A;
}
