//===- LoopInfoTest.cpp - canonical loops and invariance ------------------===//

#include "optiml/Analysis/Legality/LoopInfo.h"
#include "../Support/CudaTestAST.h"
#include "optiml/Analysis/Legality/LegalityError.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "gtest/gtest.h"

using namespace optiml;
using namespace clang;

namespace {

class LoopInfoTest : public ::testing::Test {
protected:
  /// Parses a kernel `k(float *p, const float *q, int n, int m)` whose body
  /// is \p Body, after \p Prelude at namespace scope.
  void parse(llvm::StringRef Body, llvm::StringRef Prelude = "") {
    std::string Code = Prelude.str() +
                       "\n__global__ void k(float *p, const float *q, int n, "
                       "int m) {\n" +
                       Body.str() + "\n}\n";
    AST = test::parseCuda(Code);
    ASSERT_TRUE(AST);
  }

  ASTContext &ctx() { return AST->getASTContext(); }

  /// The \p Index-th for-loop of the kernel, in source order.
  const ForStmt &loop(unsigned Index = 0) {
    using namespace ast_matchers;
    auto Found =
        match(findAll(functionDecl(hasName("k"), isDefinition(),
                                   forEachDescendant(forStmt().bind("for")))),
              *ctx().getTranslationUnitDecl(), ctx());
    std::vector<const ForStmt *> Loops;
    for (const BoundNodes &N : Found)
      Loops.push_back(N.getNodeAs<ForStmt>("for"));
    llvm::sort(Loops, [&](const ForStmt *A, const ForStmt *B) {
      return ctx().getSourceManager().isBeforeInTranslationUnit(
          A->getBeginLoc(), B->getBeginLoc());
    });
    EXPECT_LT(Index, Loops.size());
    return *Loops[Index];
  }

  std::string text(const Stmt *S) {
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(S->getSourceRange()),
               ctx().getSourceManager(), ctx().getLangOpts())
        .str();
  }

  /// The outermost expression in \p Scope spelled exactly \p Text.
  const Expr *find(const Stmt *Scope, llvm::StringRef Text) {
    if (!Scope)
      return nullptr;
    if (const auto *E = dyn_cast<Expr>(Scope);
        E && !isa<ImplicitCastExpr>(E) && text(E) == Text)
      return E;
    for (const Stmt *Child : Scope->children())
      if (const Expr *E = find(Child, Text))
        return E;
    return nullptr;
  }

  CanonicalLoop canonical(unsigned Index = 0) {
    auto L = analyzeLoop(loop(Index), ctx());
    if (!L) {
      ADD_FAILURE() << llvm::toString(L.takeError());
      return {};
    }
    return *L;
  }

  /// The reason analyzeLoop refuses the loop, or "" when it accepts it.
  std::string refusal(unsigned Index = 0) {
    auto L = analyzeLoop(loop(Index), ctx());
    if (L)
      return "";
    std::string Reason;
    llvm::handleAllErrors(L.takeError(), [&](const LegalityError &E) {
      EXPECT_EQ(E.kind(), ErrorKind::NotApplicable);
      Reason = E.reason();
    });
    return Reason;
  }

  bool invariant(llvm::StringRef Text, unsigned Index = 0) {
    const ForStmt &For = loop(Index);
    const Expr *E = find(&For, Text);
    EXPECT_TRUE(E) << "no expression '" << Text.str() << "'";
    return E && isLoopInvariant(*E, For, ctx());
  }

  std::unique_ptr<ASTUnit> AST;
};

TEST_F(LoopInfoTest, DeclaredIVLessThan) {
  parse("for (int i = 0; i < n; ++i) p[i] = 0;");
  CanonicalLoop L = canonical();
  EXPECT_EQ(L.For, &loop());
  ASSERT_TRUE(L.IV);
  EXPECT_EQ(L.IV->getName(), "i");
  EXPECT_EQ(text(L.Lower), "0");
  EXPECT_EQ(text(L.Bound), "n");
  EXPECT_EQ(L.Cmp, BO_LT);
  EXPECT_EQ(L.Step, 1);
  EXPECT_TRUE(L.increasing());
  EXPECT_FALSE(L.TripCount);
}

TEST_F(LoopInfoTest, EveryComparison) {
  parse(R"cu(
    for (int i = 0; i <= n; ++i) p[i] = 0;
    for (int i = n; i > 0; --i) p[i] = 0;
    for (int i = n; i >= 0; --i) p[i] = 0;
    for (int i = 0; i != n; ++i) p[i] = 0;
  )cu");
  EXPECT_EQ(canonical(0).Cmp, BO_LE);
  EXPECT_EQ(canonical(1).Cmp, BO_GT);
  EXPECT_EQ(canonical(2).Cmp, BO_GE);
  EXPECT_EQ(canonical(3).Cmp, BO_NE);
  EXPECT_FALSE(canonical(1).increasing());
}

TEST_F(LoopInfoTest, BoundOnTheLeftIsMirrored) {
  parse(R"cu(
    for (int i = 0; n > i; ++i) p[i] = 0;
    for (int i = 0; n >= i; ++i) p[i] = 0;
    for (int i = n; 0 < i; --i) p[i] = 0;
    for (int i = n; 0 <= i; --i) p[i] = 0;
    for (int i = 0; n != i; ++i) p[i] = 0;
  )cu");
  EXPECT_EQ(canonical(0).Cmp, BO_LT);
  EXPECT_EQ(text(canonical(0).Bound), "n");
  EXPECT_EQ(canonical(1).Cmp, BO_LE);
  EXPECT_EQ(canonical(2).Cmp, BO_GT);
  EXPECT_EQ(text(canonical(2).Bound), "0");
  EXPECT_EQ(canonical(3).Cmp, BO_GE);
  EXPECT_EQ(canonical(4).Cmp, BO_NE);
}

TEST_F(LoopInfoTest, EveryStepForm) {
  parse(R"cu(
    for (int i = 0; i < n; i++) p[i] = 0;
    for (int i = 0; i < n; i += 4) p[i] = 0;
    for (int i = n; i > 0; --i) p[i] = 0;
    for (int i = n; i > 0; i--) p[i] = 0;
    for (int i = n; i > 0; i -= 2) p[i] = 0;
    for (int i = 0; i < n; i = i + 3) p[i] = 0;
    for (int i = 0; i < n; i = 2 + i) p[i] = 0;
    for (int i = n; i > 0; i = i - 5) p[i] = 0;
    const int S = 8;
    for (int i = 0; i < n; i += S) p[i] = 0;
  )cu");
  std::vector<int64_t> Steps;
  for (unsigned I = 0; I < 9; ++I)
    Steps.push_back(canonical(I).Step);
  EXPECT_EQ(Steps, (std::vector<int64_t>{1, 4, -1, -1, -2, 3, 2, -5, 8}));
}

TEST_F(LoopInfoTest, AssignedIV) {
  parse("int i; for (i = 2; i < n; ++i) p[i] = 0; p[0] = i;");
  CanonicalLoop L = canonical();
  ASSERT_TRUE(L.IV);
  EXPECT_EQ(L.IV->getName(), "i");
  EXPECT_EQ(text(L.Lower), "2");
  EXPECT_EQ(L.Step, 1);
}

TEST_F(LoopInfoTest, IVTypes) {
  parse(R"cu(
    for (unsigned i = 0; i < n; ++i) p[i] = 0;
    for (long long i = 0; i < n; ++i) p[i] = 0;
    for (size_t i = 0; i < n; ++i) p[i] = 0;
  )cu");
  EXPECT_TRUE(canonical(0).IV->getType()->isUnsignedIntegerType());
  EXPECT_EQ(canonical(1).Step, 1);
  EXPECT_EQ(text(canonical(2).Bound), "n");
}

TEST_F(LoopInfoTest, TripCounts) {
  parse(R"cu(
    for (int i = 0; i < 10; ++i) p[i] = 0;
    for (int i = 0; i <= 10; ++i) p[i] = 0;
    for (int i = 10; i > 0; --i) p[i] = 0;
    for (int i = 10; i >= 0; i -= 2) p[i] = 0;
    for (int i = 0; i != 16; i += 4) p[i] = 0;
    for (int i = 0; i != 15; i += 4) p[i] = 0;
    for (int i = 5; i < 3; ++i) p[i] = 0;
    for (unsigned i = 10; i >= 0; --i) p[i] = 0;
    const int N = 8;
    for (int i = 0; i < N; i += 3) p[i] = 0;
    for (int i = -5; i < 10u; ++i) p[i] = 0;
    for (int i = 0; i < 10; --i) p[i] = 0;
    for (char c = 0; c < 200; ++c) p[c] = 0;
  )cu");
  std::vector<std::optional<int64_t>> Expected = {
      10,           11,          10,           6, 4,
      std::nullopt, 0,           std::nullopt, 3, std::nullopt,
      std::nullopt, std::nullopt};
  for (unsigned I = 0; I < Expected.size(); ++I)
    EXPECT_EQ(canonical(I).TripCount, Expected[I]) << "loop " << I;
}

TEST_F(LoopInfoTest, RefusesInitializations) {
  parse(R"cu(
    int i = 0, j = 0;
    for (; i < n; ++i) p[i] = 0;
    for (int a = 0, b = 0; a < n; ++a) p[a] = b;
    for (float x = 0; x < 1; x += 1) p[0] = x;
    for (p[0] = 0; i < n; ++i) p[i] = 0;
    for (bool b = false; b != true; ++j) p[0] = 1;
  )cu");
  EXPECT_EQ(refusal(0), "the loop has no initialization of an induction "
                        "variable");
  EXPECT_EQ(refusal(1), "the initialization declares more than one variable");
  EXPECT_EQ(refusal(2), "the induction variable 'x' is not an integer");
  EXPECT_EQ(refusal(3),
            "the initialization does not set a single induction variable");
  EXPECT_EQ(refusal(4), "the induction variable 'b' is not an integer");
}

TEST_F(LoopInfoTest, RefusesGlobalOrReferenceIV) {
  parse("int &r = n; for (r = 0; r < 4; ++r) p[r] = 0;");
  EXPECT_EQ(refusal(), "the induction variable 'r' is not a local variable");
}

TEST_F(LoopInfoTest, RefusesConditions) {
  parse(R"cu(
    int j = 0;
    for (int i = 0;; ++i) { if (i > n) break; }
    for (int i = 0; i < n && p[i] > 0; ++i) p[i] = 0;
    for (int i = 0; i == n; ++i) p[i] = 0;
    for (int i = 0; j < n; ++i) p[i] = 0;
    for (int i = 0; i + 1 < n; ++i) p[i] = 0;
  )cu");
  EXPECT_EQ(refusal(0), "the loop has no condition");
  std::string NotCmp =
      "the condition is not a comparison (<, <=, >, >=, !=) of 'i' with a "
      "bound";
  for (unsigned I = 1; I < 5; ++I)
    EXPECT_EQ(refusal(I), NotCmp) << "loop " << I;
}

TEST_F(LoopInfoTest, RefusesSteps) {
  parse(R"cu(
    int j = 0;
    for (int i = 1; i < n; i *= 2) p[i] = 0;
    for (int i = n; i > 0; i /= 2) p[i] = 0;
    for (int i = n; i > 0; i >>= 1) p[i] = 0;
    for (int i = 0; i < n; i += m) p[i] = 0;
    for (int i = 0; i < n; ++i, ++j) p[i] = 0;
    for (int i = 0; i < n; ++j) p[i] = 0;
    for (int i = 0; i < n; i = i * 2) p[i] = 0;
    for (int i = 0; i < n; i = 1 - i) p[i] = 0;
    for (int i = 0; i < n;) p[i++] = 0;
    for (int i = 0; i < n; i += 0) p[i] = 0;
  )cu");
  std::string NotStep =
      "the increment is not a constant add or subtract on 'i'";
  for (unsigned I = 0; I < 8; ++I)
    EXPECT_EQ(refusal(I), NotStep) << "loop " << I;
  EXPECT_EQ(refusal(8), "the loop has no increment");
  EXPECT_EQ(refusal(9), "the step is zero");
}

TEST_F(LoopInfoTest, RefusesIVAssignedInBody) {
  parse(R"cu(
    for (int i = 0; i < n; ++i) { p[i] = 0; i += 1; }
    for (int i = 0; i < n; ++i) { int *a = &i; *a = 3; }
    int i;
    int *alias = &i;
    for (i = 0; i < n; ++i) p[i] = 0;
  )cu");
  EXPECT_EQ(refusal(0), "the induction variable 'i' is assigned in the body");
  EXPECT_EQ(refusal(1), "the induction variable 'i' is assigned in the body");
  EXPECT_EQ(refusal(2), "the induction variable 'i' has its address taken");
}

TEST_F(LoopInfoTest, RefusesChangingBounds) {
  parse(R"cu(
    for (int i = 0; i < n; ++i) n--;
    for (int i = 0; i < n * m; ++i) { m = 2; }
    for (int i = 0; i < f(n); ++i) p[i] = 0;
    for (int i = 0; i < p[0]; ++i) p[i] = 0;
    for (int i = 0; i < g; ++i) p[i] = 0;
    int lim = n;
    int *alias = &lim;
    for (int i = 0; i < lim; ++i) p[i] = 0;
    for (int i = 0; i < i * 2 + n; ++i) p[i] = 0;
    for (int i = 0; i < n; ++i) { int x = 1; for (int j = 0; j < x; ++j) p[j] = 0; }
    for (int i = 0; i < n; ++i) __syncthreads();
    for (int i = 0; i < s; ++i) __syncthreads();
  )cu",
        "__device__ int f(int x);\n__device__ int g;\n"
        "__shared__ int s;");
  EXPECT_EQ(refusal(0), "the bound reads 'n', which is assigned in the loop");
  EXPECT_EQ(refusal(1), "the bound reads 'm', which is assigned in the loop");
  EXPECT_EQ(refusal(2), "the bound calls 'f'");
  EXPECT_EQ(refusal(3), "the bound reads memory that the loop may write");
  EXPECT_EQ(refusal(4),
            "the bound reads 'g', which is in memory that the loop may write");
  EXPECT_EQ(refusal(5), "the bound reads 'lim', which is in memory that the "
                        "loop may write");
  EXPECT_EQ(refusal(6), "the bound reads 'i', which is assigned in the loop");
  // The inner loop's bound is declared in the outer loop's body: fine for
  // the inner loop.
  EXPECT_EQ(refusal(8), "");
  EXPECT_EQ(refusal(9), "");
  EXPECT_EQ(refusal(10),
            "the bound reads 's', which is in memory that the loop may write");
}

TEST_F(LoopInfoTest, AcceptsBoundsThatCannotChange) {
  parse(R"cu(
    float acc = 0;
    for (int i = 0; i < int(q[0]); ++i) acc += q[i];
    for (int i = 0; i < min(n, m); ++i) p[i] = 0;
    for (int i = threadIdx.x; i < n; i += 32) p[i] = 0;
    for (int i = 0; i < blockDim.x * gridDim.x; ++i) p[i] = 0;
    for (int i = 0; i < c; ++i) p[i] = 0;
    p[0] = acc;
  )cu",
        "__constant__ int c;");
  for (unsigned I = 0; I < 5; ++I)
    EXPECT_EQ(refusal(I), "") << "loop " << I;
  EXPECT_EQ(text(canonical(2).Lower), "threadIdx.x");
  EXPECT_EQ(canonical(2).Step, 32);
}

TEST_F(LoopInfoTest, InvariantExpressions) {
  parse(R"cu(
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    float acc = 0;
    for (int i = 0; i < n; ++i)
      acc += q[row * m + i] * q[n * 4] * min(n, m) + q[0] * 2 + E * row +
             (float)((size_t)row * n);
    p[row] = acc;
  )cu",
        "enum { E = 3 };");
  EXPECT_TRUE(invariant("row * m"));
  EXPECT_TRUE(invariant("n * 4"));
  EXPECT_TRUE(invariant("min(n, m)"));
  EXPECT_TRUE(invariant("q[0] * 2")); // The loop writes no memory.
  EXPECT_TRUE(invariant("E * row"));
  EXPECT_TRUE(invariant("(size_t)row * n"));
  EXPECT_FALSE(invariant("row * m + i"));
  EXPECT_FALSE(invariant("q[row * m + i]"));
  EXPECT_FALSE(invariant("acc"));
}

TEST_F(LoopInfoTest, ThreadGeometryIsInvariant) {
  parse(R"cu(
    for (int i = 0; i < n; ++i)
      p[i] = blockIdx.x * blockDim.x + threadIdx.x + gridDim.y;
  )cu");
  EXPECT_TRUE(invariant("blockIdx.x * blockDim.x + threadIdx.x + gridDim.y"));
}

TEST_F(LoopInfoTest, VariantExpressions) {
  parse(R"cu(
    int t = 0;
    for (int i = 0; i < n; ++i) {
      int x = i;
      t += 1;
      p[i] = q[0] * 2 + t * 2 + x * 2 + f(n) * 2 + g * 2;
    }
    for (int i = 0; i < n; ++i) {
      __syncthreads();
      p[i] = s * 2;
    }
  )cu",
        "__device__ int f(int x);\n__device__ int g;\n__shared__ int s;");
  EXPECT_FALSE(invariant("q[0] * 2")); // The loop writes p[i].
  EXPECT_FALSE(invariant("t * 2"));
  EXPECT_FALSE(invariant("x * 2"));
  EXPECT_FALSE(invariant("f(n) * 2"));
  EXPECT_FALSE(invariant("g * 2"));
  EXPECT_FALSE(invariant("s * 2", 1));
  const ForStmt &For = loop(0);
  auto Why = whyLoopVariant(*find(&For, "t * 2"), For, ctx());
  ASSERT_TRUE(Why);
  EXPECT_EQ(Why->Reason, "reads 't', which is assigned in the loop");
  EXPECT_EQ(text(Why->Where), "t");
  Why = whyLoopVariant(*find(&For, "x * 2"), For, ctx());
  ASSERT_TRUE(Why);
  EXPECT_EQ(Why->Reason, "reads 'x', which is declared in the loop");
}

TEST_F(LoopInfoTest, SideEffectsAreVariant) {
  parse(R"cu(
    int t = 0;
    for (int i = 0; i < n; ++i)
      p[i] = (t = n) * 2;
  )cu");
  EXPECT_FALSE(invariant("(t = n) * 2"));
}

TEST_F(LoopInfoTest, UserFunctionNamedLikeMathIsNotPure) {
  parse("for (int i = 0; i < n; ++i) p[i] = ns::sqrtf(2.0f) + sqrtf(3.0f);",
        "namespace ns { __device__ float sqrtf(float x); }");
  const auto *User =
      dyn_cast_or_null<CallExpr>(find(&loop(), "ns::sqrtf(2.0f)"));
  const auto *Lib = dyn_cast_or_null<CallExpr>(find(&loop(), "sqrtf(3.0f)"));
  ASSERT_TRUE(User && Lib);
  EXPECT_FALSE(isPureMathCall(*User, ctx()));
  EXPECT_TRUE(isPureMathCall(*Lib, ctx()));
  EXPECT_FALSE(invariant("ns::sqrtf(2.0f)"));
  EXPECT_TRUE(invariant("sqrtf(3.0f)"));
}

} // namespace
