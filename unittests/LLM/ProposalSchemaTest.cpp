//===- ProposalSchemaTest.cpp - the legal actions as a schema -------------===//

#include "optiml/LLM/ProposalSchema.h"
#include "optiml/LLM/AnswerParser.h"
#include "transforms/RegisterTransforms.h"

#include "gtest/gtest.h"

using namespace optiml;
using nlohmann::json;

namespace {

Action action(const char *Transform, const char *Site, bool Legal) {
  Action A;
  A.Transform = Transform;
  A.Default.Transform = Transform;
  A.Default.Site = Site;
  A.Legal = Legal;
  return A;
}

class ProposalSchemaTest : public ::testing::Test {
protected:
  TransformRegistry Registry = makeTransformRegistry();
  std::vector<Action> Actions = {
      action("unroll", "k/for#0", true), action("restrict", "k", true),
      action("unroll", "k/for#1", true), action("unroll", "k/for#2", false),
      action("vectorize", "k", false),   action("no-such-transform", "k", true),
  };

  /// The item schemas of \p Schema's proposals, edits last.
  static json items(const json &Schema) {
    const json &I = Schema["properties"]["proposals"]["items"];
    return I.contains("anyOf") ? I["anyOf"] : json::array({I});
  }
};

TEST_F(ProposalSchemaTest, OnlyLegalTransformsAndSitesAreEnumerated) {
  json Items = items(ProposalSchema::forActions(Actions, Registry, 3));
  ASSERT_EQ(Items.size(), 3u); // unroll, restrict, then the edit.
  EXPECT_EQ(Items[0]["properties"]["transform"]["enum"],
            json::array({"unroll"}));
  EXPECT_EQ(Items[0]["properties"]["site"]["enum"],
            json::array({"k/for#0", "k/for#1"}));
  EXPECT_EQ(Items[1]["properties"]["transform"]["enum"],
            json::array({"restrict"}));
  EXPECT_EQ(Items[2]["properties"]["kind"]["enum"], json::array({"edit"}));
}

TEST_F(ProposalSchemaTest, ParametersAreEnumsOfTheirDomains) {
  json Unroll = items(ProposalSchema::forActions(Actions, Registry, 3))[0];
  const json &Params = Unroll["properties"]["params"];
  const Transform *T = Registry.find("unroll");
  ASSERT_NE(T, nullptr);
  ASSERT_FALSE(T->params().empty());
  for (const ParamSpec &P : T->params()) {
    EXPECT_EQ(Params["properties"][P.Name]["enum"], json(P.Domain)) << P.Name;
    EXPECT_NE(llvm::find(Params["required"], P.Name), Params["required"].end());
  }
  EXPECT_EQ(Params["additionalProperties"], false);
}

TEST_F(ProposalSchemaTest, EveryObjectIsStrict) {
  // OpenAI's strict mode wants every property required and no others.
  json Schema = ProposalSchema::forActions(Actions, Registry, 3);
  std::vector<const json *> Objects = {&Schema};
  for (size_t I = 0; I < Objects.size(); ++I) {
    const json &O = *Objects[I];
    if (O.contains("anyOf"))
      for (const json &A : O["anyOf"])
        Objects.push_back(&A);
    if (O.contains("items"))
      Objects.push_back(&O["items"]);
    if (O.value("type", "") != "object")
      continue;
    EXPECT_EQ(O["additionalProperties"], false) << O.dump();
    EXPECT_EQ(O["required"].size(), O["properties"].size()) << O.dump();
    for (const auto &[Name, Sub] : O["properties"].items())
      Objects.push_back(&Sub);
  }
  EXPECT_GT(Objects.size(), 10u);
}

TEST_F(ProposalSchemaTest, AtMostTheProposalsAskedFor) {
  EXPECT_EQ(ProposalSchema::forActions(
                Actions, Registry, 3)["properties"]["proposals"]["maxItems"],
            3);
}

TEST_F(ProposalSchemaTest, WithoutLegalActionsOnlyEditsFit) {
  json Items = items(ProposalSchema::forActions({}, Registry, 3));
  ASSERT_EQ(Items.size(), 1u);
  EXPECT_EQ(Items[0]["properties"]["kind"]["enum"], json::array({"edit"}));
}

TEST_F(ProposalSchemaTest, AnAnswerOfTheSchemasShapeIsAStep) {
  ParsedAnswer A = AnswerParser::parse(
      R"js({"proposals": [{"kind": "structured", "transform": "unroll",
            "site": "k/for#1", "params": {"factor": "4", "mode": "pragma"},
            "confidence": 0.6, "rationale": "r"}]})js",
      false);
  ASSERT_EQ(A.Proposals.size(), 1u);
  EXPECT_EQ(A.Proposals[0].Kind, ProposalKind::Structured);
  EXPECT_EQ(A.Proposals[0].Action, "unroll(site=k/for#1,factor=4,mode=pragma)");
}

TEST_F(ProposalSchemaTest, AnEditCarriesItsLaunch) {
  json Edit = items(ProposalSchema::forActions(Actions, Registry, 3)).back();
  EXPECT_EQ(Edit["properties"]["launch"]["type"], "string");
  ParsedAnswer A = AnswerParser::parse(
      R"js({"proposals": [{"kind": "edit", "code": "__global__ void k() {}",
            "launch": "grid(R) block(256)", "confidence": 0.6,
            "rationale": "r"}]})js",
      false);
  ASSERT_EQ(A.Proposals.size(), 1u);
  EXPECT_EQ(A.Proposals[0].Kind, ProposalKind::Edit);
  EXPECT_EQ(A.Proposals[0].Launch, "grid(R) block(256)");
}

} // namespace
