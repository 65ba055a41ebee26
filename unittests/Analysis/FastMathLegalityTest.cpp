//===- FastMathLegalityTest.cpp - what fast-math may rewrite -------------===//

#include "transforms/FastMath/FastMathLegality.h"
#include "../Support/CudaTestAST.h"
#include "optiml/Analysis/Legality/LegalityError.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace optiml;
using namespace clang;

namespace {

class FastMathLegalityTest : public ::testing::Test {
protected:
  /// Parses a kernel `k(float *p, double *d, int *q)` whose body is \p Body,
  /// after \p Prelude at namespace scope.
  void parse(llvm::StringRef Body, llvm::StringRef Prelude = "") {
    std::string Code = Prelude.str() +
                       "\n__global__ void k(float *p, double *d, int *q) {\n" +
                       Body.str() + "\n}\n";
    AST = test::parseCuda(Code);
    ASSERT_TRUE(AST);
  }

  ASTContext &ctx() { return AST->getASTContext(); }

  const FunctionDecl &kernel() {
    using namespace ast_matchers;
    auto Found =
        match(findAll(functionDecl(hasName("k"), isDefinition()).bind("k")),
              *ctx().getTranslationUnitDecl(), ctx());
    EXPECT_EQ(Found.size(), 1u);
    return *Found.front().getNodeAs<FunctionDecl>("k");
  }

  /// The replacement of each candidate of \p Ops, in source order, or the
  /// refusal's reason.
  std::vector<std::string> replacements(FastMathOps Ops = FastMathOps::All) {
    auto Found = FastMathLegality::candidates(kernel(), Ops, ctx());
    if (!Found) {
      std::string Reason;
      llvm::handleAllErrors(Found.takeError(), [&](const LegalityError &L) {
        Reason = "refused: " + L.reason();
      });
      return {Reason};
    }
    std::vector<std::string> Out;
    for (const FastMathCandidate &C : *Found)
      Out.push_back(C.Replacement);
    return Out;
  }

  std::unique_ptr<ASTUnit> AST;
};

using Strings = std::vector<std::string>;

TEST_F(FastMathLegalityTest, SinglePrecisionCallsOnly) {
  parse("p[0] = expf(p[1]) + logf(p[2]) + sinf(p[3]) + powf(p[4], p[5]);\n"
        "d[0] = exp(d[1]) + log(d[2]) + sin(d[3]);\n"
        "p[6] = sqrtf(p[7]) + exp(p[8]);");
  EXPECT_EQ(replacements(),
            (Strings{"__expf", "__logf", "__sinf", "__powf", "__expf"}));
}

TEST_F(FastMathLegalityTest, GroupsSelectTheirOperations) {
  parse("p[0] = expf(p[1]) * cosf(p[2]) / p[3] + 1.0f / sqrtf(p[4]);");
  EXPECT_EQ(replacements(FastMathOps::ExpLog), (Strings{"__expf"}));
  EXPECT_EQ(replacements(FastMathOps::Trig), (Strings{"__cosf"}));
  // Without the rsqrt group, 1.0f / sqrtf(x) is a division like any other.
  EXPECT_EQ(replacements(FastMathOps::Div),
            (Strings{"__fdividef", "__fdividef"}));
  EXPECT_EQ(replacements(FastMathOps::Rsqrt), (Strings{"rsqrtf"}));
  EXPECT_EQ(replacements(),
            (Strings{"__fdividef", "__expf", "__cosf", "rsqrtf"}));
}

TEST_F(FastMathLegalityTest, DivisionsThatStay) {
  parse("p[0] = p[1] / 2.0f + p[2] / 0.5f + p[3] / 4;\n"
        "d[0] = d[1] / d[2];\n"
        "q[0] = q[1] / q[2];\n"
        "p[4] /= p[5];\n"
        "const float third = 1.0f / 3.0f;\n"
        "p[6] = third + p[7] / 3.0f;");
  EXPECT_EQ(replacements(), (Strings{"__fdividef"}));
}

TEST_F(FastMathLegalityTest, UserFunctionsAndMacrosStay) {
  parse("p[0] = user::expf(p[1]) + EXP(p[2]) + helper(p[3]);",
        "namespace user { __device__ float expf(float x) { return x; } }\n"
        "__device__ float helper(float x) { return expf(x); }\n"
        "__global__ void other(float *p) { p[0] = helper(p[1]); }\n"
        "#define EXP(x) expf(x)");
  EXPECT_EQ(replacements(),
            (Strings{"refused: every single-precision call of expf, logf, "
                     "log2f, log10f, powf, sinf, cosf or tanf, or float "
                     "division in 'k' is written inside a macro, which is "
                     "left alone"}));
}

TEST_F(FastMathLegalityTest, NothingToReplace) {
  parse("d[0] = exp(d[1]);");
  EXPECT_EQ(replacements(FastMathOps::Trig),
            (Strings{"refused: 'k' has no single-precision call of sinf, cosf "
                     "or tanf to replace, nor do the helpers only it calls"}));
}

TEST_F(FastMathLegalityTest, ReachesHelpersOnlyTheKernelCalls) {
  // `mine` is k's alone, through `twice`; `shared` is called from host code
  // too, so its division stays.
  parse("p[0] = twice(p[1]) + shared(p[2]);",
        "__device__ float mine(float x) { return 1.0f / sqrtf(x); }\n"
        "__device__ float twice(float x) { return mine(x) + mine(x); }\n"
        "__host__ __device__ float shared(float x) { return x / 3.0f; }\n"
        "float on_host(float x) { return shared(x); }");
  EXPECT_EQ(replacements(), (Strings{"rsqrtf"}));
}

TEST_F(FastMathLegalityTest, ParsesOps) {
  EXPECT_EQ(FastMathLegality::parseOps("exp-log"), FastMathOps::ExpLog);
  EXPECT_EQ(FastMathLegality::parseOps("rsqrt"), FastMathOps::Rsqrt);
  EXPECT_FALSE(FastMathLegality::parseOps("fast"));
}

} // namespace
