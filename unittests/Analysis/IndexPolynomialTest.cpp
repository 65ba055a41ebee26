//===- IndexPolynomialTest.cpp - indices as polynomials, guard terms ------===//

#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "../Support/CudaTestAST.h"
#include "optiml/Analysis/Legality/GuardBounds.h"
#include "optiml/Analysis/Legality/GuardTerms.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace optiml;
using namespace clang;

namespace {

class IndexPolynomialTest : public ::testing::Test {
protected:
  /// Parses `k(const float *p, float *q, int n, int m)` with body \p Body.
  void parse(llvm::StringRef Body) {
    std::string Code = "__global__ void k(const float *p, float *q, int n, "
                       "int m) {\n" +
                       Body.str() + "\n}\n";
    AST = test::parseCuda(Code);
    ASSERT_TRUE(AST);
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

/// The parameter named \p Name of the kernel.
const ParmVarDecl *localNamedParm(const FunctionDecl &K, llvm::StringRef Name) {
  for (const ParmVarDecl *P : K.parameters())
    if (P->getName() == Name)
      return P;
  return nullptr;
}

/// The local named \p Name of the kernel.
const VarDecl *localNamed(const FunctionDecl &K, llvm::StringRef Name) {
  for (const Stmt *S : cast<CompoundStmt>(K.getBody())->body())
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getName() == Name)
          return V;
  return nullptr;
}

TEST_F(IndexPolynomialTest, GuardBoundsStepOverExcludedValues) {
  // A stencil's interior: x >= 0 as a coordinate, x != 0 and x != n - 1
  // where the border returned, x < n from the early return.
  parse("int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "if (x >= n) return;\n"
        "if (x == 0 || x == n - 1) { q[x] = 0; return; }\n"
        "q[x] = p[x - 1] + p[x + 1];");
  const VarDecl *X = localNamed(kernel(), "x");
  ASSERT_TRUE(X);
  auto Poly = [&](const Expr &E) {
    return IndexPolynomial::of(E, ctx(),
                               [&](const VarDecl &V) { return &V != X; });
  };
  IndexPolynomial N =
      IndexPolynomial::atom(IndexAtom::of(*localNamedParm(kernel(), "n")));
  auto C = [](int64_t K) { return IndexPolynomial::constant(K); };
  std::vector<GuardTerm> Interior =
      guardTermsAt(*subscripts().at(2), kernel(), ctx());
  VarBounds B = VarBounds::from(*X, Interior, /*AtLeastZero=*/true, Poly);
  EXPECT_TRUE(B.provesAtLeast(C(1)));
  EXPECT_FALSE(B.provesAtLeast(C(2)));
  EXPECT_TRUE(B.provesAtMost(N - C(2)));
  EXPECT_FALSE(B.provesAtMost(N - C(3)));
  EXPECT_TRUE(B.proves({BO_LT, N - C(1)}));
  EXPECT_FALSE(B.proves({BO_LT, N - C(2)}));
  // Without the coordinate's own bound nothing is known from below.
  VarBounds NoZero = VarBounds::from(*X, Interior, false, Poly);
  EXPECT_FALSE(NoZero.provesAtLeast(C(0)));
  // At the border's store only x < n and x >= 0 hold.
  VarBounds Border = VarBounds::from(
      *X, guardTermsAt(*subscripts().at(0), kernel(), ctx()), true, Poly);
  EXPECT_TRUE(Border.provesAtMost(N - C(1)));
  EXPECT_FALSE(Border.provesAtMost(N - C(2)));
  EXPECT_FALSE(Border.provesAtLeast(C(1)));
}

TEST_F(IndexPolynomialTest, GuardComparisonsIsolateTheVariable) {
  parse("int x = threadIdx.x;\n"
        "if (n > x && n - x > 1 && 2 * x < n && x + m <= n) q[x] = p[x];");
  const VarDecl *X = localNamed(kernel(), "x");
  ASSERT_TRUE(X);
  auto Poly = [&](const Expr &E) {
    return IndexPolynomial::of(E, ctx(),
                               [&](const VarDecl &V) { return &V != X; });
  };
  std::vector<GuardTerm> Terms =
      guardTermsAt(*subscripts().at(0), kernel(), ctx());
  ASSERT_EQ(Terms.size(), 4u);
  std::vector<std::string> Read;
  for (const GuardTerm &T : Terms) {
    auto Cmp = compareOf(T, *X, Poly);
    Read.push_back(Cmp ? std::string(BinaryOperator::getOpcodeStr(Cmp->Op)) +
                             " " + Cmp->Bound.str()
                       : "none");
  }
  // n > x is x < n; n - x > 1 is x < n - 1; 2 * x < n does not isolate x.
  EXPECT_EQ(Read,
            (std::vector<std::string>{"< n", "< -1 + n", "none", "<= -m + n"}));
}

} // namespace
