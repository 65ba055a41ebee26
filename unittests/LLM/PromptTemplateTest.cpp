//===- PromptTemplateTest.cpp - versioned prompts with variables ---------===//

#include "optiml/LLM/PromptTemplate.h"
#include "optiml/LLM/PromptLibrary.h"
#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

const char *const Good = "# name: greet\n# version: 3\n# variables: who, what\n"
                         "@@ system\nBe brief.\n@@ user\nHello {{who}}, "
                         "{{ what }}! {not a variable}\n";

TEST(PromptTemplateTest, RendersNamedVariables) {
  auto T = PromptTemplate::parse(Good, "greet.prompt");
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->name(), "greet");
  EXPECT_EQ(T->version(), "3");
  auto R = T->render({{"who", "{{world}}"}, {"what", "hi"}});
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(R->System, "Be brief.");
  // Values are not templates themselves.
  EXPECT_EQ(R->User, "Hello {{world}}, hi! {not a variable}");
  EXPECT_EQ(R->Version, "greet/3");
}

TEST(PromptTemplateTest, RefusesHoles) {
  auto T = PromptTemplate::parse(Good, "greet.prompt");
  ASSERT_TRUE(bool(T));
  auto Missing = T->render({{"who", "x"}});
  ASSERT_FALSE(bool(Missing));
  EXPECT_EQ(llvm::toString(Missing.takeError()),
            "greet.prompt: variable 'what' has no value (this OptiML does "
            "not provide it)");

  auto Undeclared = PromptTemplate::parse(
      "# name: a\n# version: 1\n# variables: x\n@@ user\n{{x}} {{y}}\n", "a");
  ASSERT_FALSE(bool(Undeclared));
  EXPECT_EQ(llvm::toString(Undeclared.takeError()),
            "a: {{y}} is used but not declared in '# variables:'");

  auto NoVersion = PromptTemplate::parse("# name: a\n@@ user\nhi\n", "a");
  EXPECT_FALSE(bool(NoVersion));
  llvm::consumeError(NoVersion.takeError());
}

TEST(PromptTemplateTest, TheShippedProposePromptLoads) {
  auto T = PromptLibrary::locate(OPTIML_PROMPTS_DIR, "optiml-unittests")
               .load("propose");
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->name(), "propose");
  std::map<std::string, std::string> Values;
  for (const std::string &V : T->variables())
    Values[V] = "<" + V + ">";
  auto R = T->render(Values);
  ASSERT_TRUE(bool(R));
  EXPECT_NE(R->User.find("<source>"), std::string::npos);
  EXPECT_NE(R->User.find("<actions>"), std::string::npos);

  auto Missing = PromptLibrary::locate("/nonexistent", "x").load("propose");
  ASSERT_FALSE(bool(Missing));
  EXPECT_EQ(llvm::toString(Missing.takeError()),
            "no prompt 'propose' in /nonexistent (--prompts-dir names the "
            "folder of *.prompt files)");
}

} // namespace
