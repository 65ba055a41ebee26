//===- LlmConfigTest.cpp - settings from flags, environment, file --------===//

#include "optiml/LLM/LlmConfig.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <fstream>

using namespace optiml;

namespace {

/// Sets variables for one test and removes them afterwards.
class Env {
public:
  ~Env() {
    for (const std::string &N : Names)
      ::unsetenv(N.c_str());
  }
  void set(const std::string &Name, const std::string &Value) {
    ::setenv(Name.c_str(), Value.c_str(), 1);
    Names.push_back(Name);
  }

private:
  std::vector<std::string> Names;
};

TEST(LlmConfigTest, NoneByDefaultAndKeysUntouched) {
  Env E;
  E.set("OPENAI_API_KEY", "sk-untouched");
  auto C = LlmConfig::resolve({});
  ASSERT_TRUE(bool(C));
  EXPECT_FALSE(C->enabled());
  // Without --llm nothing changes, the environment included.
  ASSERT_NE(std::getenv("OPENAI_API_KEY"), nullptr);
}

TEST(LlmConfigTest, FlagBeatsVariableBeatsFile) {
  Env E;
  llvm::SmallString<128> File;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("llm", "json", File));
  std::ofstream(std::string(File))
      << R"({"llm": "openai", "llm-model": "from-file", "llm-temperature": 0.5,
            "llm-max-tokens": 77, "llm-base-url": "http://file/v1/"})";
  E.set("OPTIML_LLM_CONFIG", std::string(File));
  E.set("OPTIML_LLM_MODEL", "from-env");
  E.set("OPTIML_LLM_MAX_TOKENS", "99");
  auto C = LlmConfig::resolve({{"llm-max-tokens", "123"}});
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->Provider, LlmProvider::OpenAI);
  EXPECT_EQ(C->Model, "from-env");
  EXPECT_EQ(C->MaxTokens, 123u);
  EXPECT_DOUBLE_EQ(C->Temperature, 0.5);
  EXPECT_EQ(C->BaseUrl, "http://file/v1"); // Trailing slash dropped.
  llvm::sys::fs::remove(File);
}

TEST(LlmConfigTest, BadValuesNameTheirSource) {
  Env E;
  E.set("OPTIML_LLM_TEMPERATURE", "warm");
  auto C = LlmConfig::resolve({{"llm", "openai"}, {"llm-model", "m"}});
  ASSERT_FALSE(bool(C));
  EXPECT_EQ(llvm::toString(C.takeError()),
            "OPTIML_LLM_TEMPERATURE='warm' is not a number >= 0");

  auto P = LlmConfig::resolve({{"llm", "gemini"}});
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "--llm='gemini' is not a provider (none, openai or anthropic)");

  ::unsetenv("OPTIML_LLM_TEMPERATURE");
  auto M = LlmConfig::resolve({{"llm", "anthropic"}});
  ASSERT_FALSE(bool(M));
  EXPECT_EQ(llvm::toString(M.takeError()),
            "--llm=anthropic needs a model: --llm-model=NAME or "
            "OPTIML_LLM_MODEL");
}

TEST(LlmConfigTest, TheSchemaIsSentUnlessTurnedOff) {
  Env E;
  auto Default = LlmConfig::resolve({});
  ASSERT_TRUE(bool(Default)) << llvm::toString(Default.takeError());
  EXPECT_TRUE(Default->SendSchema);
  auto Off = LlmConfig::resolve({{"llm-schema", "off"}});
  ASSERT_TRUE(bool(Off)) << llvm::toString(Off.takeError());
  EXPECT_FALSE(Off->SendSchema);
  E.set("OPTIML_LLM_SCHEMA", "sometimes");
  auto Bad = LlmConfig::resolve({});
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "OPTIML_LLM_SCHEMA='sometimes' is not auto or off");
}

TEST(LlmConfigTest, TheKeyIsTakenOutOfTheEnvironment) {
  Env E;
  E.set("ANTHROPIC_API_KEY", "sk-ant-secret");
  E.set("OPENAI_API_KEY", "sk-other");
  auto C = LlmConfig::resolve({{"llm", "anthropic"}, {"llm-model", "m"}});
  ASSERT_TRUE(bool(C));
  EXPECT_EQ(C->Key.reveal(), "sk-ant-secret");
  EXPECT_EQ(C->BaseUrl, "https://api.anthropic.com/v1");
  // No child process inherits any key.
  EXPECT_EQ(std::getenv("ANTHROPIC_API_KEY"), nullptr);
  EXPECT_EQ(std::getenv("OPENAI_API_KEY"), nullptr);
  EXPECT_EQ(C->Key.redact("bad key sk-ant-secret, sk-ant-secret!"),
            "bad key [key], [key]!");
}

TEST(LlmConfigTest, OurKeyVariableComesFirst) {
  Env E;
  E.set("OPTIML_LLM_API_KEY", "ours");
  E.set("OPENAI_API_KEY", "theirs");
  auto C = LlmConfig::resolve({{"llm", "openai"}, {"llm-model", "m"}});
  ASSERT_TRUE(bool(C));
  EXPECT_EQ(C->Key.reveal(), "ours");
  EXPECT_EQ(std::getenv("OPTIML_LLM_API_KEY"), nullptr);
}

} // namespace
