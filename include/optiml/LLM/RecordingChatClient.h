//===- RecordingChatClient.h - cache, accounting and budget ----*- C++ -*-===//
//
// Wraps a real client with the database (DESIGN.md: the database is the
// memory): an answer is looked up by a key over the endpoint, model, prompt
// hash, sampling parameters and sample index before any call; a call that
// is made is recorded with its tokens, latency and estimated cost. With
// --llm-replay nothing is called: a miss is an error, so a replayed run is
// offline and deterministic. --llm-max-calls and --llm-max-cost stop a run
// before a call would go past them.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_RECORDINGCHATCLIENT_H
#define OPTIML_LLM_RECORDINGCHATCLIENT_H

#include "optiml/DB/Database.h"
#include "optiml/LLM/ChatClient.h"
#include "optiml/LLM/LlmConfig.h"

namespace optiml {

/// What one run spent on calls (cache hits cost nothing).
struct LlmUsage {
  unsigned Calls = 0;
  unsigned CacheHits = 0;
  int64_t TokensIn = 0, TokensOut = 0;
  double Cost = 0;
  double Seconds = 0;
};

class RecordingChatClient : public ChatClient {
public:
  /// \p Inner may be null with Config.Replay (nothing is ever called).
  RecordingChatClient(const LlmConfig &Config, ChatClient *Inner, Database &Db)
      : Config(Config), Inner(Inner), Db(Db) {}

  llvm::Expected<ChatAnswer> complete(const ChatRequest &R) override;
  std::string provider() const override {
    return toString(Config.Provider).str();
  }
  std::string endpoint() const override { return Config.BaseUrl; }
  std::string model() const override { return Config.Model; }

  const LlmUsage &usage() const { return Usage; }

  /// The cache key of \p R at this client's endpoint and model (hex).
  std::string cacheKey(const ChatRequest &R) const;
  /// The hash of what the model reads: both messages and the schema.
  static std::string promptHash(const ChatRequest &R);

private:
  llvm::Error checkBudget() const;

  const LlmConfig &Config;
  ChatClient *Inner;
  Database &Db;
  LlmUsage Usage;
};

} // namespace optiml

#endif // OPTIML_LLM_RECORDINGCHATCLIENT_H
