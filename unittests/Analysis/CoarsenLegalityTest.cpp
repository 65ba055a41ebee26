//===- CoarsenLegalityTest.cpp - the jam plan and its refusals -----------===//

#include "transforms/Coarsen/CoarsenLegality.h"
#include "../Support/CudaTestAST.h"
#include "optiml/Support/Error.h"

#include "clang/AST/Decl.h"
#include "gtest/gtest.h"

using namespace optiml;
using namespace clang;

namespace {

const char *const Sgemm = R"cu(
__global__ void sgemm(const float *A, const float *B, float *C, int m, int n,
                      int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i)
    acc += A[row * k + i] * B[i * n + col];
  C[row * n + col] = acc;
}
void run(const float *A, const float *B, float *C, int m, int n, int k) {
  dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
  sgemm<<<grid, block>>>(A, B, C, m, n, k);
}
)cu";

class CoarsenLegalityTest : public ::testing::Test {
protected:
  /// Parses \p Code and returns its kernel \p Name.
  const FunctionDecl &parse(llvm::StringRef Code, llvm::StringRef Name) {
    AST = test::parseCuda(Code);
    return *test::definitionOf(ctx(), Name);
  }

  ASTContext &ctx() { return AST->getASTContext(); }

  /// The statements of the kernel body, in order.
  static std::vector<const Stmt *> top(const FunctionDecl &K) {
    const auto *Body = cast<CompoundStmt>(K.getBody());
    return {Body->body_begin(), Body->body_end()};
  }

  ErrorSummary refusal(llvm::StringRef Code, llvm::StringRef Name,
                       unsigned Dim) {
    const FunctionDecl &K = parse(Code, Name); // Before ctx() is read.
    auto Plan = CoarsenLegality::analyze(K, Dim, 4, ctx());
    EXPECT_FALSE(static_cast<bool>(Plan));
    return Plan ? ErrorSummary{ErrorKind::Internal, "legal"}
                : summarize(Plan.takeError());
  }

  std::unique_ptr<ASTUnit> AST;
};

TEST_F(CoarsenLegalityTest, SgemmAlongY) {
  const FunctionDecl &K = parse(Sgemm, "sgemm");
  auto Plan = CoarsenLegality::analyze(K, 1, 4, ctx());
  ASSERT_TRUE(static_cast<bool>(Plan)) << toString(Plan.takeError());
  ASSERT_EQ(Plan->IndexVars.size(), 1u);
  EXPECT_EQ(Plan->IndexVars[0]->getName(), "row");
  EXPECT_EQ(Plan->copyVar(), "optiml_cy");
  auto S = top(K);
  ASSERT_EQ(S.size(), 6u);
  EXPECT_EQ(Plan->actionOf(S[0]), JamAction::Drop);      // row
  EXPECT_EQ(Plan->actionOf(S[1]), JamAction::Keep);      // col
  EXPECT_EQ(Plan->actionOf(S[2]), JamAction::Guard);     // early return
  EXPECT_EQ(Plan->actionOf(S[3]), JamAction::Privatize); // acc
  EXPECT_EQ(Plan->actionOf(S[4]), JamAction::Descend);   // for i
  EXPECT_EQ(Plan->actionOf(S[5]), JamAction::Jam);       // C[...] = acc
  const Stmt *Update = cast<ForStmt>(S[4])->getBody();
  EXPECT_EQ(Plan->actionOf(Update), JamAction::Jam);
  ASSERT_EQ(Plan->Private.size(), 1u);
  EXPECT_EQ((*Plan->Private.begin())->getName(), "acc");
  // The loads and the store are guarded; acc's initializer is not.
  EXPECT_TRUE(Plan->Guarded.contains(Update));
  EXPECT_TRUE(Plan->Guarded.contains(S[5]));
  EXPECT_FALSE(Plan->Guarded.contains(S[3]));
  ASSERT_EQ(Plan->Launches.size(), 1u);
  EXPECT_TRUE(Plan->Launches[0].GridDims[1].has_value());
  EXPECT_FALSE(Plan->Launches[0].GridDims[0].has_value());
}

TEST_F(CoarsenLegalityTest, SgemmAlongX) {
  const FunctionDecl &K = parse(Sgemm, "sgemm");
  auto Plan = CoarsenLegality::analyze(K, 0, 2, ctx());
  ASSERT_TRUE(static_cast<bool>(Plan)) << toString(Plan.takeError());
  ASSERT_EQ(Plan->IndexVars.size(), 1u);
  EXPECT_EQ(Plan->IndexVars[0]->getName(), "col");
  auto S = top(K);
  EXPECT_EQ(Plan->actionOf(S[0]), JamAction::Keep);
  EXPECT_EQ(Plan->actionOf(S[1]), JamAction::Drop);
  EXPECT_TRUE(CoarsenLegality::readsBlockIdx(K, 0));
  EXPECT_TRUE(CoarsenLegality::readsBlockIdx(K, 1));
}

TEST_F(CoarsenLegalityTest, IndexVariablesFollowIndexVariables) {
  const FunctionDecl &K = parse(R"cu(
__global__ void k(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = 2 * i;
  float s = 1.0f;
  if (i < n)
    y[j] = s;
}
void run(float *y, int n) { k<<<(n + 127) / 128, 128>>>(y, n); }
)cu",
                                "k");
  auto Plan = CoarsenLegality::analyze(K, 0, 4, ctx());
  ASSERT_TRUE(static_cast<bool>(Plan)) << toString(Plan.takeError());
  ASSERT_EQ(Plan->IndexVars.size(), 2u);
  EXPECT_EQ(Plan->IndexVars[1]->getName(), "j");
  auto S = top(K);
  EXPECT_EQ(Plan->actionOf(S[1]), JamAction::Drop);
  EXPECT_EQ(Plan->actionOf(S[2]), JamAction::Keep); // Read, never changed.
  EXPECT_EQ(Plan->actionOf(S[3]), JamAction::Jam);
  EXPECT_TRUE(Plan->Private.empty());
}

TEST_F(CoarsenLegalityTest, RefusalsSayWhy) {
  ErrorSummary E = refusal(R"cu(
__global__ void k(const float *x, float *partial, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    partial[blockIdx.x] = x[i];
}
void run(float *x, int n) { k<<<(n + 255) / 256, 256>>>(x, x, n); }
)cu",
                           "k", 0);
  EXPECT_EQ(E.Kind, ErrorKind::Illegal);
  EXPECT_NE(E.Message.find("blockIdx.x is used outside"), std::string::npos)
      << E.Message;

  E = refusal(R"cu(
__global__ void k(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    y[i] = y[i + 1];
}
void run(float *y, int n) { k<<<(n + 255) / 256, 256>>>(y, n); }
)cu",
              "k", 0);
  EXPECT_NE(E.Message.find("accessed both at 'i' and at 'i + 1'"),
            std::string::npos)
      << E.Message;

  E = refusal(R"cu(
__global__ void k(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 0;
}
__global__ void other(float *y, int n) {}
)cu",
              "k", 0);
  EXPECT_NE(E.Message.find("not launched in this file"), std::string::npos)
      << E.Message;
}

TEST_F(CoarsenLegalityTest, AlreadyCoarsenedIsNotApplicable) {
  ErrorSummary E = refusal(R"cu(
__global__ void k(float *y, int n) {
  int optiml_cx = 0;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = optiml_cx;
}
void run(float *y, int n) { k<<<(n + 255) / 256, 256>>>(y, n); }
)cu",
                           "k", 0);
  EXPECT_EQ(E.Kind, ErrorKind::NotApplicable);
}

TEST_F(CoarsenLegalityTest, LaunchesNeedCeilDivGrids) {
  const FunctionDecl &K = parse(R"cu(
__global__ void k(float *y, int n) {}
void run(float *y, int n) {
  k<<<(n + 63) / 64, 64>>>(y, n);
  k<<<n / 64, 64>>>(y, n);
}
)cu",
                                "k");
  auto L = dividableLaunches(K, 0, ctx());
  ASSERT_FALSE(static_cast<bool>(L));
  ErrorSummary E = summarize(L.takeError());
  EXPECT_NE(E.Message.find("grid x 'n / 64'"), std::string::npos) << E.Message;
}

} // namespace
