//===- StepTest.cpp - the step spelling and its errors -------------------===//

#include "optiml/Transform/Step.h"
#include "optiml/Support/Error.h"
#include "transforms/RegisterTransforms.h"

#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

using namespace optiml;

namespace {

class StepTest : public ::testing::Test {
protected:
  /// The one-line message of a step that must not parse; also checks that
  /// it is the user's error.
  std::string error(llvm::StringRef Text) {
    auto S = Step::parse(Text, Registry);
    if (S)
      return "(parsed: " + S->str() + ")";
    ErrorSummary E = summarize(S.takeError());
    EXPECT_EQ(E.Kind, ErrorKind::BadInput) << E.Message;
    EXPECT_EQ(E.Message.find('\n'), std::string::npos) << E.Message;
    return E.Message;
  }

  TransformRegistry Registry = makeTransformRegistry();
};

TEST_F(StepTest, ParsesSiteAndParameters) {
  auto S = Step::parse("unroll(site=sgemm/for#0/for#1,factor=8)", Registry);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Transform, "unroll");
  EXPECT_EQ(S->Site, "sgemm/for#0/for#1");
  EXPECT_EQ(S->Params.get("factor"), "8");
  EXPECT_EQ(S->Params.getInt("factor"), 8);
  EXPECT_EQ(S->str(), "unroll(site=sgemm/for#0/for#1,factor=8)");
}

TEST_F(StepTest, ToleratesBlanksAndOmittedParameters) {
  auto S = Step::parse("  block-size ( site = ops::k , y = 4 ) ", Registry);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Site, "ops::k");
  EXPECT_FALSE(S->Params.has("x")); // Left to the site's defaults.
  EXPECT_EQ(S->str(), "block-size(site=ops::k,y=4)");
}

TEST_F(StepTest, ParameterlessTransform) {
  auto S = Step::parse("restrict(site=saxpy)", Registry);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_TRUE(S->Params.items().empty());
}

TEST_F(StepTest, UnknownTransformListsTheKnownOnes) {
  EXPECT_EQ(error("skew(site=k/for#0)"),
            "in step 'skew(site=k/for#0)': unknown transform 'skew' "
            "(transforms: " +
                llvm::join(Registry.names(), ", ") + ")");
}

TEST_F(StepTest, UnknownParameterListsTheDeclaredOnes) {
  EXPECT_EQ(error("unroll(site=k/for#0,fator=4)"),
            "in step 'unroll(site=k/for#0,fator=4)': unroll has no parameter "
            "'fator' (parameters: site, factor, mode)");
  EXPECT_NE(
      error("restrict(site=k,factor=2)").find("restrict has no parameter"),
      std::string::npos);
}

TEST_F(StepTest, ValueOutsideItsDomain) {
  EXPECT_EQ(error("unroll(site=k/for#0,factor=3)"),
            "in step 'unroll(site=k/for#0,factor=3)': factor=3 is outside its "
            "domain {2, 4, 8, 16}");
  EXPECT_NE(error("block-size(site=k,x=2048)").find("x=2048 is outside"),
            std::string::npos);
  EXPECT_NE(error("unroll(site=k/for#0,factor=four)").find("outside"),
            std::string::npos);
}

TEST_F(StepTest, MalformedSteps) {
  EXPECT_NE(error("unroll(factor=4)").find("no site given"), std::string::npos);
  EXPECT_NE(error("unroll").find("expected 'unroll(site=...)'"),
            std::string::npos);
  EXPECT_NE(error("unroll(site=k/for#0").find("expected"), std::string::npos);
  EXPECT_NE(error("(site=k)").find("expected 'transform("), std::string::npos);
  EXPECT_NE(error("unroll(site=k/for#0,factor)").find("expected 'name=value'"),
            std::string::npos);
  EXPECT_NE(error("unroll(site=k/for#0,factor=)").find("expected 'name=value'"),
            std::string::npos);
  EXPECT_NE(error("unroll(site=a,site=b)").find("site is given twice"),
            std::string::npos);
  EXPECT_NE(error("unroll(site=a,factor=2,factor=4)")
                .find("parameter 'factor' is given twice"),
            std::string::npos);
}

TEST(ParamSpecTest, IntegerDomains) {
  ParamSpec P = ParamSpec::integers("factor", {2, 4}, 4, "help");
  EXPECT_TRUE(P.admits("2"));
  EXPECT_FALSE(P.admits("3"));
  EXPECT_FALSE(P.admits("02"));
  EXPECT_EQ(P.domainText(), "{2, 4}");
  EXPECT_EQ(P.Default, "4");
}

TEST(ParamValuesTest, KeepsOrderAndOverwrites) {
  ParamValues V;
  V.set("x", "32");
  V.set("y", "8");
  V.set("x", "64");
  ASSERT_EQ(V.items().size(), 2u);
  EXPECT_EQ(V.items()[0].first, "x");
  EXPECT_EQ(V.getInt("x"), 64);
  EXPECT_EQ(V.get("z"), "");
  EXPECT_EQ(V.getInt("z"), 0);
}

} // namespace
