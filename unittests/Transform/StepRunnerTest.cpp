//===- StepRunnerTest.cpp - apply, re-parse, chain -----------------------===//

#include "optiml/Transform/StepRunner.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Transform/ActionSpace.h"
#include "transforms/RegisterTransforms.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "gtest/gtest.h"

using namespace optiml;

namespace {

const char *const Kernel = R"cu(
__global__ void k(float *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] = 0;
  int t = 0;
  while (t < n)
    ++t;
}
)cu";

/// Replaces a kernel's body with code that does not compile: a transform
/// bug, which must never reach the output.
class Breaker : public Transform {
public:
  Breaker() : Transform({"breaker", "test", SiteKind::Kernel}) {}
  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                               clang::ASTContext &Ctx) const override {
    return Rewrite([S, &Ctx]() -> llvm::Expected<EditSet> {
      using namespace clang::transformer;
      EditSet Edits;
      if (llvm::Error E = Edits.add(*S.Kernel->getBody(),
                                    changeTo(node(EditSet::Root.str()),
                                             cat("{ undeclared_name(); }")),
                                    Ctx))
        return E;
      return Edits;
    });
  }
};

class StepRunnerTest : public ::testing::Test {
protected:
  StepRunnerTest()
      : DB(".", {"-std=c++17"}),
        Parser(DB, CudaToolchain::detect("optiml-unittests", "", "")),
        Registry(makeTransformRegistry()), Runner(Registry, Parser) {
    llvm::cantFail(Registry.add(std::make_unique<Breaker>()));
  }

  std::unique_ptr<ParsedSource> parse(const char *Code) {
    auto P = Parser.parse(KernelSource("/optiml-unittest/k.cu", Code));
    EXPECT_TRUE(bool(P));
    return P ? std::move(*P) : nullptr;
  }

  llvm::Expected<StepResult> run(ParsedSource &In, llvm::StringRef Text) {
    auto S = Step::parse(Text, Registry);
    if (!S)
      return S.takeError();
    return Runner.run(In, *S);
  }

  clang::tooling::FixedCompilationDatabase DB;
  SourceParser Parser;
  TransformRegistry Registry;
  StepRunner Runner;
};

TEST_F(StepRunnerTest, AppliesAndReparses) {
  auto In = parse(Kernel);
  ASSERT_TRUE(In);
  auto R = run(*In, "unroll(site=k/for#0)");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Applied.str(), "unroll(site=k/for#0,factor=4)");
  EXPECT_NE(R->Parsed->source().text().find("  #pragma unroll 4\n  for (int i"),
            llvm::StringRef::npos);
  EXPECT_EQ(R->Parsed->source().path(), "/optiml-unittest/k.cu");
  EXPECT_NE(R->Parsed->source().hash(), In->source().hash());
  // The original is a value: untouched.
  EXPECT_EQ(In->source().text(), Kernel);
}

TEST_F(StepRunnerTest, AParameterTheDefaultsLeaveOutIsSpelledOnlyWhenGiven) {
  // unroll's defaults() leave `mode` out, so its default step reads as it
  // did before the parameter existed; given, it is kept in its place.
  auto In = parse(Kernel);
  ASSERT_TRUE(In);
  auto Default = run(*In, "unroll(site=k/for#0,factor=2)");
  ASSERT_TRUE(bool(Default)) << llvm::toString(Default.takeError());
  EXPECT_EQ(Default->Applied.str(), "unroll(site=k/for#0,factor=2)");
  auto R = run(*In, "unroll(site=k/for#0,mode=explicit)");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Applied.str(), "unroll(site=k/for#0,factor=4,mode=explicit)");
  EXPECT_NE(R->Parsed->source().text().find(
                "  #pragma unroll 1\n  for (int i = optiml_i_u; i < n; ++i)"),
            llvm::StringRef::npos);
}

TEST_F(StepRunnerTest, ChainedStepsSeeTheRewrittenSource) {
  auto In = parse(Kernel);
  ASSERT_TRUE(In);
  auto First = run(*In, "unroll(site=k/for#0,factor=2)");
  ASSERT_TRUE(bool(First)) << llvm::toString(First.takeError());
  auto Second = run(*First->Parsed, "unroll(site=k/for#0,factor=8)");
  ASSERT_FALSE(bool(Second));
  llvm::handleAllErrors(Second.takeError(), [](const LegalityError &L) {
    EXPECT_EQ(L.kind(), ErrorKind::NotApplicable);
    EXPECT_EQ(L.reason(), "'k/for#0' already has '#pragma unroll'");
    EXPECT_EQ(L.where().Line, 3u);
  });
}

TEST_F(StepRunnerTest, RefusalIsALegalityErrorAtTheLoop) {
  auto In = parse(Kernel);
  ASSERT_TRUE(In);
  auto R = run(*In, "unroll(site=k/while#0)");
  ASSERT_FALSE(bool(R));
  llvm::handleAllErrors(R.takeError(), [](const LegalityError &L) {
    EXPECT_EQ(L.kind(), ErrorKind::NotApplicable);
    EXPECT_EQ(L.where().Line, 6u);
    EXPECT_EQ(L.where().Column, 3u);
  });
}

TEST_F(StepRunnerTest, UnknownSiteListsTheSites) {
  auto In = parse(Kernel);
  ASSERT_TRUE(In);
  ErrorSummary E = summarize(run(*In, "unroll(site=k/for#3)").takeError());
  EXPECT_EQ(E.Kind, ErrorKind::BadInput);
  EXPECT_EQ(E.Message, "unroll(site=k/for#3): no loop site 'k/for#3' (sites: "
                       "k/for#0, k/while#0)");
}

TEST_F(StepRunnerTest, AResultThatDoesNotParseIsInternal) {
  auto In = parse(Kernel);
  ASSERT_TRUE(In);
  ErrorSummary E = summarize(run(*In, "breaker(site=k)").takeError());
  EXPECT_EQ(E.Kind, ErrorKind::Internal);
  EXPECT_NE(E.Message.find("the result of breaker(site=k) does not parse"),
            std::string::npos)
      << E.Message;
}

TEST_F(StepRunnerTest, ActionSpaceCoversEveryTransformAndSite) {
  auto In = parse(Kernel);
  ASSERT_TRUE(In);
  std::vector<Action> All = ActionSpace::enumerate(Registry, *In, "");
  std::vector<std::string> Seen;
  for (const Action &A : All)
    Seen.push_back(A.Default.str() + (A.Legal ? " legal" : " " + A.Kind));
  EXPECT_EQ(Seen, (std::vector<std::string>{
                      "unroll(site=k/for#0,factor=4) legal",
                      "unroll(site=k/while#0,factor=4) not-applicable",
                      "tile(site=k/for#0,size=16) legal",
                      "tile(site=k/while#0,size=16) not-applicable",
                      "hoist(site=k/for#0) not-applicable",
                      "hoist(site=k/while#0) not-applicable",
                      "scalar-replace(site=k/for#0) not-applicable",
                      "scalar-replace(site=k/while#0) not-applicable",
                      "stage-shared(site=k/p,tile=16) illegal",
                      "stage-shared(site=k/for#0/p,tile=16) illegal",
                      "stage-shared(site=k/while#0/p,tile=16) not-applicable",
                      "warp-reduce(site=k/for#0) not-applicable",
                      "warp-reduce(site=k/while#0) not-applicable",
                      "warp-per-row(site=k/for#0,lanes=32) not-applicable",
                      "warp-per-row(site=k/while#0,lanes=32) not-applicable",
                      "restrict(site=k) legal",
                      "read-only(site=k/p) illegal",
                      "read-only(site=k/for#0/p) not-applicable",
                      "read-only(site=k/while#0/p) not-applicable",
                      "pad-shared(site=k,pad=1) not-applicable",
                      "aggregate-atomics(site=k) not-applicable",
                      "privatize-atomics(site=k/p) not-applicable",
                      "privatize-atomics(site=k/for#0/p) not-applicable",
                      "privatize-atomics(site=k/while#0/p) not-applicable",
                      "launch-bounds(site=k,max-threads=256) illegal",
                      "fast-math(site=k,ops=all) not-applicable",
                      "coarsen(site=k,dim=x,factor=4) illegal",
                      "vectorize(site=k,width=4) illegal",
                      "block-size(site=k,x=128,y=1,z=1) illegal",
                      "breaker(site=k) legal"}));
}

} // namespace
