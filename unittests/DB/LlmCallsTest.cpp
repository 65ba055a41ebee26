//===- LlmCallsTest.cpp - LLM calls in the search database ---------------===//

#include "optiml/DB/Database.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <sqlite3.h>

using namespace optiml;

namespace {

LlmCallRecord call(std::string Key, std::string Answer) {
  LlmCallRecord R;
  R.CacheKey = std::move(Key);
  R.Provider = "openai";
  R.Endpoint = "http://127.0.0.1:8080/v1";
  R.Model = "smollm2";
  R.PromptVersion = "propose/1";
  R.PromptHash = "ph";
  R.Temperature = 0.2;
  R.MaxTokens = 256;
  R.Sample = 1;
  R.Answer = std::move(Answer);
  R.FinishReason = "stop";
  R.TokensIn = 900;
  R.TokensOut = 64;
  R.LatencySeconds = 2.5;
  R.Cost = 0.001;
  return R;
}

TEST(LlmCallsTest, RoundTripAndNewestAnswerPerKey) {
  Database Db = llvm::cantFail(Database::open(":memory:"));
  EXPECT_FALSE(llvm::cantFail(Db.findLlmCall("k1")).has_value());
  int64_t First = llvm::cantFail(Db.addLlmCall(call("k1", "old")));
  int64_t Second = llvm::cantFail(Db.addLlmCall(call("k1", "new")));
  EXPECT_LT(First, Second);
  auto Found = llvm::cantFail(Db.findLlmCall("k1"));
  ASSERT_TRUE(Found.has_value());
  EXPECT_EQ(Found->Answer, "new");
  EXPECT_EQ(Found->Model, "smollm2");
  EXPECT_EQ(Found->PromptVersion, "propose/1");
  EXPECT_EQ(Found->TokensIn, 900);
  EXPECT_EQ(Found->Sample, 1);
  EXPECT_DOUBLE_EQ(Found->LatencySeconds, 2.5);
  EXPECT_GT(Found->CreatedAt, 0);
  EXPECT_EQ(llvm::cantFail(Db.llmCalls()).size(), 2u);
}

TEST(LlmCallsTest, ASchemaOneDatabaseGainsTheTable) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-db", Dir));
  llvm::SmallString<128> Path(Dir);
  llvm::sys::path::append(Path, "v1.sqlite");
  sqlite3 *Raw = nullptr;
  ASSERT_EQ(sqlite3_open(Path.c_str(), &Raw), SQLITE_OK);
  sqlite3_exec(Raw,
               "CREATE TABLE kernels (id INTEGER PRIMARY KEY, hash TEXT NOT "
               "NULL, name TEXT NOT NULL, spec TEXT NOT NULL, device TEXT NOT "
               "NULL, toolchain TEXT NOT NULL, created_at INTEGER NOT NULL, "
               "UNIQUE (hash, spec, device, toolchain));"
               "INSERT INTO kernels VALUES (7, 'h', 'k', 's', 'd', 't', 1);"
               "PRAGMA user_version = 1;",
               nullptr, nullptr, nullptr);
  sqlite3_close(Raw);
  auto Db = Database::open(Path);
  ASSERT_TRUE(bool(Db)) << llvm::toString(Db.takeError());
  EXPECT_EQ(llvm::cantFail(Db->kernels()).front().Id, 7);
  EXPECT_TRUE(bool(Db->addLlmCall(call("k", "a"))));
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
