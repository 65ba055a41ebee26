//===- LoopDependenceTest.cpp - accesses and reordering in loops ----------===//
//
// StmtAccesses names the buffer and element offset of every access, and
// LoopDependence finds the accesses that running one part of a loop's
// iterations before the other would reorder.
//
//===----------------------------------------------------------------------===//

#include "optiml/Analysis/Legality/LoopDependence.h"
#include "../Support/CudaTestAST.h"
#include "optiml/Analysis/Legality/LoopInfo.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace optiml;
using namespace clang;

namespace {

class LoopDependenceTest : public ::testing::Test {
protected:
  /// Parses a kernel `k(float *p, const float *q, int n)` whose body is
  /// \p Body, launched once with distinct buffers.
  void parse(llvm::StringRef Body) {
    std::string Code =
        "__global__ void k(float *p, const float *q, int n) {\n" + Body.str() +
        "\n}\nvoid launch(float *p, const float *q, int n) {\n"
        "  k<<<1, 32>>>(p, q, n);\n}\n";
    AST = test::parseCuda(Code);
    ASSERT_TRUE(AST);
  }

  ASTContext &ctx() { return AST->getASTContext(); }

  /// The kernel's first for-loop.
  const ForStmt &loop() {
    using namespace ast_matchers;
    auto Found =
        match(findAll(functionDecl(hasName("k"), isDefinition(),
                                   hasDescendant(forStmt().bind("for")))),
              *ctx().getTranslationUnitDecl(), ctx());
    EXPECT_FALSE(Found.empty());
    return *Found.front().getNodeAs<ForStmt>("for");
  }

  /// The first \p Split statements of the loop's body, and the rest.
  std::pair<StmtAccesses, StmtAccesses> parts(unsigned Split) {
    const auto *Body = cast<CompoundStmt>(loop().getBody());
    llvm::ArrayRef<const Stmt *> All(Body->body_begin(), Body->body_end());
    return {StmtAccesses(All.take_front(Split), ctx()),
            StmtAccesses(All.drop_front(Split), ctx())};
  }

  /// What LoopDependence says of splitting the loop after \p Split
  /// statements: "none", "reversed N", "every" or "unproven: WHY".
  std::string conflict(unsigned Split) {
    auto [First, Second] = parts(Split);
    auto L = analyzeLoop(loop(), ctx());
    if (!L) {
      ADD_FAILURE() << llvm::toString(L.takeError());
      return "";
    }
    const FunctionDecl *K = test::definitionOf(ctx(), "k");
    LoopDependence Dep(First, Second, *L->IV, L->Step, *K, ctx());
    auto C = Dep.firstConflict();
    if (!C)
      return "none";
    switch (C->K) {
    case DependenceConflict::Reversed:
      return "reversed " + std::to_string(C->Distance);
    case DependenceConflict::EveryIteration:
      return "every";
    case DependenceConflict::Unproven:
      break;
    }
    return "unproven: " + C->Why;
  }

  std::unique_ptr<ASTUnit> AST;
};

TEST_F(LoopDependenceTest, OffsetsFollowLocalPointersAndArrays) {
  parse(R"cu(
  __shared__ float s[4][8];
  float *row = p + n * 4;
  for (int i = 0; i < n; ++i) {
    row[i + 1] = q[i];
    s[i][2] += 1.0f;
  }
)cu");
  auto [All, None] = parts(2);
  ASSERT_EQ(All.memory().size(), 3u);
  const MemoryAccess &Row = All.memory()[0], &Q = All.memory()[1],
                     &S = All.memory()[2];
  ASSERT_TRUE(Row.Root && Row.Offset);
  EXPECT_EQ(Row.Root->getName(), "p");
  EXPECT_EQ(Row.Offset->str(), "1 + i + 4 * n");
  EXPECT_TRUE(Row.Writes);
  EXPECT_FALSE(Row.Reads);
  ASSERT_TRUE(Q.Root);
  EXPECT_EQ(Q.Root->getName(), "q");
  EXPECT_TRUE(Q.Reads);
  EXPECT_FALSE(Q.Writes);
  ASSERT_TRUE(S.Root && S.Offset);
  EXPECT_EQ(S.Root->getName(), "s");
  EXPECT_EQ(S.Offset->str(), "2 + 8 * i");
  EXPECT_TRUE(S.Reads && S.Writes);
  EXPECT_FALSE(All.hazard());
}

TEST_F(LoopDependenceTest, VariablesAndHazards) {
  parse(R"cu(
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) {
    float v = q[i];
    acc += v;
    for (int j = 0; j < n; ++j)
      if (q[j] > 0.0f)
        break;
    __syncthreads();
  }
  p[0] = acc;
)cu");
  auto [First, Rest] = parts(3);
  EXPECT_FALSE(First.hazard()); // The break leaves only the inner loop.
  ASSERT_EQ(First.declared().size(), 2u);
  EXPECT_EQ(First.declared()[0]->getName(), "v");
  auto Acc = llvm::find_if(
      First.used(), [](const VarDecl *V) { return V->getName() == "acc"; });
  ASSERT_NE(Acc, First.used().end());
  EXPECT_TRUE(First.firstWrite(**Acc));
  EXPECT_FALSE(First.firstWrite(*First.declared()[0]));
  ASSERT_TRUE(Rest.hazard());
  EXPECT_EQ(Rest.hazard()->What,
            "a call to '__syncthreads', which synchronizes or exchanges data "
            "between threads");
}

TEST_F(LoopDependenceTest, SameIterationAndForwardAreKept) {
  parse(R"cu(
  for (int i = 1; i < n; ++i) {
    p[i] = q[i];
    p[i] += i > 1 ? p[i - 1] : 0.0f;
  }
)cu");
  EXPECT_EQ(conflict(1), "none");
}

TEST_F(LoopDependenceTest, BackwardIsReversedWithItsDistance) {
  parse(R"cu(
  for (int i = 0; i < n; ++i) {
    float v = i >= 2 ? p[i - 2] : 0.0f;
    p[i] = q[i] + v;
  }
)cu");
  EXPECT_EQ(conflict(1), "reversed 2");
}

TEST_F(LoopDependenceTest, ReadingAheadIsKept) {
  parse(R"cu(
  for (int i = 0; i < n; ++i) {
    float v = p[i + 2];
    p[i] = q[i] + v;
  }
)cu");
  // Iteration i reads p[i + 2] before iteration i + 2 writes it: the first
  // part stays ahead.
  EXPECT_EQ(conflict(1), "none");
}

TEST_F(LoopDependenceTest, StepsAndStridesScaleTheDistance) {
  parse(R"cu(
  for (int i = 0; i < n; i += 2) {
    float v = p[2 * i + 3];
    p[2 * i] = v;
    p[2 * i + 8] = q[i];
  }
)cu");
  // 2*i + 3 is never 2*i' (odd and even); 2*i + 8 is reached 2 iterations
  // after 2*i with a step of 2.
  EXPECT_EQ(conflict(1), "none");
  EXPECT_EQ(conflict(2), "reversed 2");
}

TEST_F(LoopDependenceTest, OneElementOnEveryIteration) {
  parse(R"cu(
  for (int i = 0; i < n; ++i) {
    p[0] += q[i];
    p[1] = p[0];
  }
)cu");
  EXPECT_EQ(conflict(1), "every");
}

TEST_F(LoopDependenceTest, UnprovenIsSaid) {
  parse(R"cu(
  for (int i = 0; i < n; ++i) {
    p[i * n] = q[i];
    p[i] = q[i];
  }
)cu");
  EXPECT_EQ(conflict(1),
            "unproven: their indices move with 'i' at different strides ('1' "
            "and 'n')");
}

TEST_F(LoopDependenceTest, SharedVariables) {
  parse(R"cu(
  float last = 0.0f;
  for (int i = 0; i < n; ++i) {
    p[i] = last;
    last = q[i];
  }
)cu");
  auto [First, Second] = parts(1);
  auto V = LoopDependence::firstSharedVariable(First, Second);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Var->getName(), "last");
  EXPECT_FALSE(V->WrittenByEarlier);
}

} // namespace
