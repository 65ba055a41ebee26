//===- IndexPolynomialTest.cpp - indices as polynomials, guard terms ------===//

#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/GuardTerms.h"
#include "optiml/Frontend/CudaToolchain.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace optiml;
using namespace clang;

namespace {

class IndexPolynomialTest : public ::testing::Test {
protected:
  /// Parses `k(const float *p, float *q, int n, int m)` with body \p Body.
  void parse(llvm::StringRef Body) {
    CudaToolchain TC = CudaToolchain::detect("optiml-unittests", "", "");
    std::vector<std::string> Args =
        TC.defaultsAdjuster()({"clang++", "-x", "cuda", "-std=c++17"}, "k.cu");
    Args.erase(Args.begin());
    std::string Code = "__global__ void k(const float *p, float *q, int n, "
                       "int m) {\n" +
                       Body.str() + "\n}\n";
    AST = tooling::buildASTFromCodeWithArgs(Code, Args, "k.cu");
    ASSERT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred()) << Code;
  }

  ASTContext &ctx() { return AST->getASTContext(); }

  /// The subscripts of the kernel, in source order.
  std::vector<const ArraySubscriptExpr *> subscripts() {
    using namespace ast_matchers;
    std::vector<const ArraySubscriptExpr *> Out;
    for (const BoundNodes &N :
         match(findAll(functionDecl(
                   hasName("k"), isDefinition(),
                   forEachDescendant(arraySubscriptExpr().bind("a")))),
               *ctx().getTranslationUnitDecl(), ctx()))
      Out.push_back(N.getNodeAs<ArraySubscriptExpr>("a"));
    llvm::sort(Out, [&](auto *A, auto *B) {
      return ctx().getSourceManager().isBeforeInTranslationUnit(
          A->getBeginLoc(), B->getBeginLoc());
    });
    return Out;
  }

  /// The polynomial of the \p I-th subscript's index, as text.
  std::string index(unsigned I = 0) {
    auto P = IndexPolynomial::of(*subscripts().at(I)->getIdx(), ctx());
    if (!P)
      return "error: " + llvm::toString(P.takeError());
    return P->str();
  }

  const FunctionDecl &kernel() {
    using namespace ast_matchers;
    return *selectFirst<FunctionDecl>(
        "k",
        match(functionDecl(hasName("k"), isDefinition()).bind("k"), ctx()));
  }

  std::unique_ptr<ASTUnit> AST;
};

TEST_F(IndexPolynomialTest, ExpandsSingleDefinitionLocals) {
  parse("int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
        "for (int i = 0; i < n; ++i) q[0] += p[row * n + i];");
  // Every product expanded, atoms in a fixed order (built-ins first).
  EXPECT_EQ(index(1), "threadIdx.y * n + blockIdx.y * blockDim.y * n + i");
}

TEST_F(IndexPolynomialTest, KeepsReassignedLocalsAsAtoms) {
  parse("int j = threadIdx.x; j += 1; q[j] = p[2 * j - j];");
  EXPECT_EQ(index(0), "j");
  EXPECT_EQ(index(1), "j");
}

TEST_F(IndexPolynomialTest, LooksThroughIntegerCastsAndShifts) {
  parse("int r = threadIdx.x; q[(size_t)r * m + (r << 2)] = 0;");
  EXPECT_EQ(index(), "4 * threadIdx.x + threadIdx.x * m");
}

TEST_F(IndexPolynomialTest, RefusesDivisionsLoadsAndCalls) {
  parse("q[threadIdx.x / 2] = 0; q[(int)p[0]] = 0; q[min(n, m)] = 0;");
  EXPECT_EQ(index(0), "error: the index is not a polynomial of thread and "
                      "loop indices: operator '/'");
  EXPECT_NE(index(1).find("error:"), std::string::npos);
  EXPECT_NE(index(3).find("error:"), std::string::npos);
}

TEST_F(IndexPolynomialTest, CoefficientsSelectAndSubstitute) {
  parse("int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "for (int i = 0; i < n; ++i) q[0] += p[i * n + c];");
  auto P = IndexPolynomial::of(*subscripts().at(1)->getIdx(), ctx());
  ASSERT_TRUE(bool(P));
  IndexAtom TX = IndexAtom::of(BuiltinRef{BuiltinRef::ThreadIdx, 0});
  IndexAtom BD = IndexAtom::of(BuiltinRef{BuiltinRef::BlockDim, 0});
  EXPECT_EQ(P->coefficient(TX)->asConstant(), 1);
  IndexPolynomial Fixed = P->substitute(BD, IndexPolynomial::constant(32));
  EXPECT_EQ(Fixed.str(), "threadIdx.x + 32 * blockIdx.x + i * n");
  IndexPolynomial Uniform = Fixed.select([](const auto &M) {
    return llvm::none_of(M, [](const IndexAtom &A) {
      return A.isBuiltin(BuiltinRef::ThreadIdx);
    });
  });
  EXPECT_EQ(Uniform.str(), "32 * blockIdx.x + i * n");
  EXPECT_TRUE((Fixed - Uniform - IndexPolynomial::atom(TX)).isZero());
  // Degree two in an atom has no linear coefficient.
  EXPECT_FALSE((IndexPolynomial::atom(TX) * IndexPolynomial::atom(TX))
                   .coefficient(TX)
                   .has_value());
}

TEST_F(IndexPolynomialTest, GuardTermsSplitConjunctsAndEarlyReturns) {
  parse("int r = threadIdx.y, c = threadIdx.x;\n"
        "if (r >= m || c >= n) return;\n"
        "if (r < 4 && !(c == 2 || c == 3)) q[r] = p[c];");
  std::vector<std::string> Terms;
  for (const GuardTerm &T : guardTermsAt(*subscripts().at(0), kernel(), ctx()))
    Terms.push_back(T.str(ctx()));
  EXPECT_EQ(Terms,
            (std::vector<std::string>{"(r < 4)", "!(c == 2)", "!(c == 3)",
                                      "!(r >= m)", "!(c >= n)"}));
  EXPECT_EQ(earlyReturns(kernel()).size(), 1u);
}

} // namespace
