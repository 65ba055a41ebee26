//===- TransformDescriptorTest.cpp - descriptors as data -----------------===//

#include "optiml/Transform/TransformDescriptor.h"
#include "optiml/Support/Error.h"
#include "optiml/Transform/TransformRegistry.h"
#include "transforms/RegisterTransforms.h"

#include "gtest/gtest.h"
#include <nlohmann/json.hpp>

using namespace optiml;

namespace {

/// A well-formed descriptor to break one field at a time.
nlohmann::json valid() {
  return nlohmann::json::parse(R"({
    "name": "skew",
    "summary": "skew a loop nest",
    "site": "loop",
    "changes_numerics": false,
    "recipe": true,
    "params": [{"name": "factor", "domain": [1, 2], "default": 2,
                "help": "how far"},
               {"name": "mode", "domain": ["a", "b"], "default": "a",
                "help": "which way"}],
    "addresses": ["memory-bound"]
  })");
}

/// The message of the error \p J gives, or "" when it reads.
std::string problem(const nlohmann::json &J) {
  auto D = descriptorFromJSON(J.dump(), "Skew.json");
  if (D)
    return "";
  ErrorSummary E = summarize(D.takeError());
  EXPECT_EQ(E.Kind, ErrorKind::Internal);
  return E.Message;
}

TEST(TransformDescriptorTest, ReadsEveryField) {
  auto D = descriptorFromJSON(valid().dump(), "Skew.json");
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  EXPECT_EQ(D->Name, "skew");
  EXPECT_EQ(D->Summary, "skew a loop nest");
  EXPECT_EQ(D->Kind, SiteKind::Loop);
  EXPECT_FALSE(D->ChangesNumerics);
  EXPECT_TRUE(D->Recipe);
  ASSERT_EQ(D->Params.size(), 2u);
  EXPECT_EQ(D->Params[0].Domain, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(D->Params[0].Default, "2");
  EXPECT_EQ(D->Params[1].Help, "which way");
  EXPECT_EQ(D->Addresses, std::vector<std::string>{"memory-bound"});
  EXPECT_EQ(toJSON(*D), valid()); // Integers stay numbers.
}

TEST(TransformDescriptorTest, TheFlagsMayBeLeftOut) {
  nlohmann::json J = valid();
  J.erase("changes_numerics");
  J.erase("recipe");
  auto D = descriptorFromJSON(J.dump(), "Skew.json");
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  EXPECT_FALSE(D->ChangesNumerics);
  EXPECT_FALSE(D->Recipe);
  J["changes_numerics"] = "yes";
  EXPECT_EQ(problem(J),
            "Skew.json: the descriptor changes_numerics must be true or false");
  J = valid();
  J["recipe"] = 1;
  EXPECT_EQ(problem(J),
            "Skew.json: the descriptor recipe must be true or false");
}

TEST(TransformDescriptorTest, RefusesWhatWouldBeSilentlyWrong) {
  EXPECT_EQ(problem(nlohmann::json::array({valid()})),
            "Skew.json: the descriptor is not an object");
  nlohmann::json J = valid();
  J["adresses"] = J["addresses"];
  EXPECT_EQ(problem(J),
            "Skew.json: the descriptor has an unknown field 'adresses'");
  J = valid();
  J.erase("summary");
  EXPECT_EQ(problem(J), "Skew.json: the descriptor has no field 'summary'");
  J = valid();
  J["site"] = "statement";
  EXPECT_EQ(problem(J), "Skew.json: the descriptor site must be kernel, loop "
                        "or buffer, not 'statement'");
  J = valid();
  J["params"][0]["default"] = 3;
  EXPECT_EQ(problem(J), "Skew.json: params[0] default '3' is outside its "
                        "domain {1, 2}");
  J = valid();
  J["params"][1]["domain"] = nlohmann::json::array();
  EXPECT_EQ(problem(J),
            "Skew.json: params[1] domain must be a non-empty array");
  J = valid();
  J["params"][1]["name"] = "factor";
  EXPECT_EQ(problem(J),
            "Skew.json: the descriptor names parameter 'factor' twice");
  J = valid();
  J["params"][0]["name"] = "site";
  EXPECT_EQ(problem(J), "Skew.json: params[0] name 'site' is reserved for "
                        "the step's site");
  J = valid();
  J["params"][0]["domain"][1] = 2.5;
  EXPECT_EQ(problem(J), "Skew.json: params[0] domain[1] must be a non-empty "
                        "string or an integer");
  J = valid();
  J["addresses"] = "memory-bound";
  EXPECT_EQ(problem(J),
            "Skew.json: the descriptor addresses must be an array of strings");
}

TEST(TransformDescriptorTest, NotJSONAtAll) {
  auto D = descriptorFromJSON("{\"name\": ", "Skew.json");
  ASSERT_FALSE(bool(D));
  EXPECT_EQ(llvm::toString(D.takeError()), "Skew.json: not valid JSON");
}

TEST(TransformDescriptorTest, TheLibrarysDescriptorsRoundTrip) {
  TransformRegistry R = makeTransformRegistry();
  for (const Transform *T : R.all()) {
    const TransformDescriptor &D = T->descriptor();
    auto Again = descriptorFromJSON(toJSON(D).dump(), D.Name);
    ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
    EXPECT_EQ(toJSON(*Again), toJSON(D));
  }
}

} // namespace
