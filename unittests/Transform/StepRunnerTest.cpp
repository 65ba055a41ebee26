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

/// Replaces the last statement of a kernel's body with `p[0] = 1`: the
/// locals only that statement read are left unused.
class LastStoreReplacer : public Transform {
public:
  LastStoreReplacer() : Transform({"replace-last", "test", SiteKind::Kernel}) {}
  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                               clang::ASTContext &Ctx) const override {
    return Rewrite([S, &Ctx]() -> llvm::Expected<EditSet> {
      using namespace clang::transformer;
      const auto *Body = llvm::cast<clang::CompoundStmt>(S.Kernel->getBody());
      EditSet Edits;
      if (llvm::Error E = Edits.add(
              *Body->body_back(),
              changeTo(node(EditSet::Root.str()), cat("p[0] = 1")), Ctx))
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
    llvm::cantFail(Registry.add(std::make_unique<LastStoreReplacer>()));
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

TEST_F(StepRunnerTest, LocalsTheStepLeftUnusedAreRemoved) {
  auto In = parse(R"cu(
__device__ int next();
__device__ __attribute__((const)) int twice(int x) { return 2 * x; }
struct Counted {
  __device__ Counted() : v(next()) {}
  int v;
};
__global__ void k(float *p, int n) {
  int mine = 0;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = twice(n) + 1, both = 2;
  int c = next();
  float g = p[n];
  int h = i + 2;
  dim3 d(2, n);
  Counted q;
  for (int t = 0; t < 1; ++t)
    mine = t;
  p[i + h] = g + j + c + both + d.y + q.v;
}
)cu");
  ASSERT_TRUE(In);
  auto R = run(*In, "replace-last(site=k)");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  std::string Out = R->Parsed->source().text().str();
  // g, h, d, j and both went, and i, which only h read, with them; the
  // user's own locals stay, and so do a call and a constructor that may do
  // something.
  EXPECT_EQ(Out.find("float g"), std::string::npos) << Out;
  EXPECT_EQ(Out.find("int h"), std::string::npos) << Out;
  EXPECT_EQ(Out.find("const int i"), std::string::npos) << Out;
  EXPECT_EQ(Out.find("dim3 d"), std::string::npos) << Out;
  EXPECT_NE(Out.find("  Counted q;\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("  int mine = 0;\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("  int c = next();\n"), std::string::npos) << Out;
  // A call to a const function computes a value only.
  EXPECT_EQ(Out.find("twice(n)"), std::string::npos) << Out;
  EXPECT_NE(Out.find("  p[0] = 1;\n}"), std::string::npos) << Out;
}

TEST_F(StepRunnerTest, DeclaratorsTheStepLeftUnusedAreRemovedFromTheirList) {
  auto In = parse(R"cu(
__global__ void k(float *p, int n) {
  float *a = p, *b = p + 1;
  int c = 1, d = 2, e = 3;
  float *f = p, g = 1.0f;
  p[1] = *a + d + g;
  p[n] = *a + *b + c + d + e + *f + g;
}
)cu");
  ASSERT_TRUE(In);
  auto R = run(*In, "replace-last(site=k)");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  std::string Out = R->Parsed->source().text().str();
  EXPECT_NE(Out.find("  float *a = p;\n  int d = 2;\n"), std::string::npos)
      << Out;
  // f's `*` is its own: removing it alone would change g's type.
  EXPECT_NE(Out.find("  float *f = p, g = 1.0f;\n"), std::string::npos) << Out;
}

TEST_F(StepRunnerTest, LocalsUnusedInTheInputStay) {
  auto In = parse(R"cu(
__global__ void k(float *p, int n) {
  int spare = n * 2;
  int w = n + 1;
  {
    int w = 3;
  }
  p[w] = 2;
}
)cu");
  ASSERT_TRUE(In);
  auto R = run(*In, "replace-last(site=k)");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  std::string Out = R->Parsed->source().text().str();
  EXPECT_NE(Out.find("  int spare = n * 2;\n"), std::string::npos) << Out;
  // A name the user already left unused somewhere in the kernel is not
  // touched, whichever of its locals the step made unused.
  EXPECT_NE(Out.find("  int w = n + 1;\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("    int w = 3;\n"), std::string::npos) << Out;
}

TEST_F(StepRunnerTest, ActionSpaceCoversEveryTransformAndSite) {
  auto In = parse(Kernel);
  ASSERT_TRUE(In);
  std::vector<Action> All = ActionSpace::enumerate(Registry, *In, "");
  std::vector<std::string> Seen;
  for (const Action &A : All)
    Seen.push_back(A.Default.str() + (A.Legal ? " legal" : " " + A.Kind));
  EXPECT_EQ(
      Seen,
      (std::vector<std::string>{
          "unroll(site=k/for#0,factor=4) legal",
          "unroll(site=k/while#0,factor=4) not-applicable",
          "tile(site=k/for#0,size=16) legal",
          "tile(site=k/while#0,size=16) not-applicable",
          "hoist(site=k/for#0) not-applicable",
          "hoist(site=k/while#0) not-applicable",
          "fission(site=k/for#0,split=1) not-applicable",
          "fission(site=k/while#0,split=1) not-applicable",
          "fusion(site=k/for#0) not-applicable",
          "fusion(site=k/while#0) not-applicable",
          "scalar-replace(site=k/for#0) not-applicable",
          "scalar-replace(site=k/while#0) not-applicable",
          "stage-shared(site=k/p,tile=16) illegal",
          "stage-shared(site=k/for#0/p,tile=16) illegal",
          "stage-shared(site=k/while#0/p,tile=16) not-applicable",
          "pipeline-shared(site=k/for#0,stages=2) not-applicable",
          "pipeline-shared(site=k/while#0,stages=2) not-applicable",
          "sequential-reduce(site=k/for#0) not-applicable",
          "sequential-reduce(site=k/while#0) not-applicable",
          "warp-reduce(site=k/for#0) not-applicable",
          "warp-reduce(site=k/while#0) not-applicable",
          "warp-scan(site=k/for#0) not-applicable",
          "warp-scan(site=k/while#0) not-applicable",
          "warp-per-row(site=k/for#0,lanes=32,grid=keep) not-applicable",
          "warp-per-row(site=k/while#0,lanes=32,grid=keep) not-applicable",
          "vectorize-loop(site=k/for#0,width=4) not-applicable",
          "vectorize-loop(site=k/while#0,width=4) not-applicable",
          "while-to-for(site=k/for#0) not-applicable",
          "while-to-for(site=k/while#0) not-applicable",
          "restrict(site=k) legal",
          "read-only(site=k/p) illegal",
          "read-only(site=k/for#0/p) not-applicable",
          "read-only(site=k/while#0/p) not-applicable",
          "pad-shared(site=k,pad=1) not-applicable",
          "aggregate-atomics(site=k) not-applicable",
          "privatize-atomics(site=k/p) not-applicable",
          "privatize-atomics(site=k/for#0/p) not-applicable",
          "privatize-atomics(site=k/while#0/p) not-applicable",
          "launch-bounds(site=k,max-threads=1024,min-blocks=1) legal",
          "fast-math(site=k,ops=all) not-applicable",
          "coarsen(site=k,dim=x,factor=4) illegal",
          "vectorize(site=k,width=4) illegal",
          "block-size(site=k,x=128,y=1,z=1) illegal",
          "swap-xy(site=k) illegal",
          "tensor-cores(site=k/for#0,precision=tf32x3,tile=64) "
          "not-applicable",
          "tensor-cores(site=k/while#0,precision=tf32x3,tile=64) "
          "not-applicable",
          "breaker(site=k) legal",
          "replace-last(site=k) legal"}));
}

} // namespace
