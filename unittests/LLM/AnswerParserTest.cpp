//===- AnswerParserTest.cpp - proposals out of a model's text ------------===//

#include "optiml/LLM/AnswerParser.h"

#include "gtest/gtest.h"

#include <nlohmann/json.hpp>

using namespace optiml;

namespace {

TEST(AnswerParserTest, ReadsTheAskedForJSON) {
  ParsedAnswer A = AnswerParser::parse(
      R"js({"proposals": [
        {"kind": "structured", "action": "unroll(site=k/for#0,factor=4)",
         "code": "", "confidence": 0.7, "rationale": "short loop"},
        {"kind": "edit", "action": "", "code": "__global__ void k() {}",
         "confidence": "0.4", "rationale": "rewrite"}]})js",
      false);
  ASSERT_EQ(A.Proposals.size(), 2u);
  EXPECT_TRUE(A.Notes.empty());
  EXPECT_EQ(A.Proposals[0].Kind, ProposalKind::Structured);
  EXPECT_EQ(A.Proposals[0].Action, "unroll(site=k/for#0,factor=4)");
  EXPECT_DOUBLE_EQ(A.Proposals[0].Confidence, 0.7);
  EXPECT_EQ(A.Proposals[0].Rationale, "short loop");
  EXPECT_EQ(A.Proposals[1].Kind, ProposalKind::Edit);
  EXPECT_EQ(A.Proposals[1].Code, "__global__ void k() {}");
  EXPECT_DOUBLE_EQ(A.Proposals[1].Confidence, 0.4);
}

TEST(AnswerParserTest, FindsJSONInProseAndFences) {
  ParsedAnswer A = AnswerParser::parse(
      "Sure! Here is what I suggest:\n```json\n"
      R"js([{"transform": "unroll", "site": "k/for#0", "params": {"factor": 8},
           "confidence": 90}])js"
      "\n```\nGood luck.",
      false);
  ASSERT_EQ(A.Proposals.size(), 1u);
  EXPECT_EQ(A.Proposals[0].Action, "unroll(site=k/for#0,factor=8)");
  EXPECT_DOUBLE_EQ(A.Proposals[0].Confidence, 0.9); // A percentage.
}

TEST(AnswerParserTest, AFencedKernelIsAnEditWhateverWasAsked) {
  ParsedAnswer A = AnswerParser::parse(
      "Use a helper.\n```cuda\n__global__ void k(float *p) { p[0] = 1; }\n```\n"
      "Also:\n```python\nprint(1)\n```\n",
      false);
  ASSERT_EQ(A.Proposals.size(), 1u);
  EXPECT_EQ(A.Proposals[0].Kind, ProposalKind::Edit);
  EXPECT_EQ(A.Proposals[0].Code, "__global__ void k(float *p) { p[0] = 1; }\n");
  EXPECT_EQ(A.Proposals[0].Rationale, "Use a helper.\nAlso:");
}

TEST(AnswerParserTest, CodeInsideJSONLosesItsFence) {
  ParsedAnswer A = AnswerParser::parse(
      R"js({"proposals": [{"kind": "edit", "code": "```cuda\n__global__ void k() {}\n```"}]})js",
      false);
  ASSERT_EQ(A.Proposals.size(), 1u);
  EXPECT_EQ(A.Proposals[0].Code, "__global__ void k() {}\n");
}

TEST(AnswerParserTest, MalformedAndTruncatedAnswersGiveNotes) {
  ParsedAnswer Bad = AnswerParser::parse(
      R"js(Here: {"proposals": [{"action": "x",, }])js", false);
  EXPECT_TRUE(Bad.Proposals.empty());
  ASSERT_EQ(Bad.Notes.size(), 1u);
  EXPECT_EQ(Bad.Notes[0],
            "the answer is not valid JSON and holds no fenced code block");

  ParsedAnswer Cut = AnswerParser::parse(
      R"js({"proposals": [{"action": "unroll(site=k/fo)js", true);
  EXPECT_TRUE(Cut.Proposals.empty());
  ASSERT_EQ(Cut.Notes.size(), 2u);
  EXPECT_EQ(Cut.Notes[0],
            "the answer was cut off at the token limit (--llm-max-tokens)");

  ParsedAnswer Salvaged = AnswerParser::parse(
      R"js({"proposals": [{"action": "a(site=k)", "rationale": "has } and \" in it"},
           {"action": "b(site=k)"}, {"action": "c(si)js",
      true);
  ASSERT_EQ(Salvaged.Proposals.size(), 2u);
  EXPECT_EQ(Salvaged.Proposals[0].Rationale, "has } and \" in it");
  EXPECT_EQ(Salvaged.Proposals[1].Action, "b(site=k)");
  ASSERT_EQ(Salvaged.Notes.size(), 2u);
  EXPECT_EQ(Salvaged.Notes[1],
            "the answer is not valid JSON; its 2 complete proposal(s) were "
            "read");

  ParsedAnswer Open =
      AnswerParser::parse("```cuda\n__global__ void k() {\n", true);
  EXPECT_TRUE(Open.Proposals.empty());
  EXPECT_EQ(Open.Notes[1], "a code block is not closed; it is ignored");
}

TEST(AnswerParserTest, ItemsWithoutActionOrCodeAreNoted) {
  ParsedAnswer A = AnswerParser::parse(
      R"js({"proposals": [{"kind": "structured", "confidence": 1}, 7]})js",
      false);
  EXPECT_TRUE(A.Proposals.empty());
  ASSERT_EQ(A.Notes.size(), 2u);
  EXPECT_EQ(A.Notes[0], "proposal 1 names no action and holds no code");
  EXPECT_EQ(A.Notes[1], "proposal 2 is not a JSON object");
}

} // namespace
