//===- VectorizeLegalityTest.cpp - elementwise shape and buffers ---------===//

#include "transforms/Vectorize/VectorizeLegality.h"
#include "../Support/CudaTestAST.h"
#include "optiml/Support/Error.h"

#include "clang/AST/Decl.h"
#include "gtest/gtest.h"

using namespace optiml;
using namespace clang;

namespace {

class VectorizeLegalityTest : public ::testing::Test {
protected:
  /// Parses a kernel `k` with the given parameters and body, launched once
  /// with a ceil-div grid.
  const FunctionDecl &parse(llvm::StringRef Params, llvm::StringRef Body) {
    std::string Code =
        "__global__ void k(" + Params.str() + ") {\n" + Body.str() + "\n}\n";
    // The launch passes nulls and zeros.
    std::string Launch = "\nvoid launch(int n) { k<<<(n + 255) / 256, 256>>>(";
    llvm::SmallVector<llvm::StringRef, 4> Ps;
    Params.split(Ps, ',');
    for (size_t I = 0; I < Ps.size(); ++I)
      Launch +=
          std::string(I ? ", " : "") + (Ps[I].contains('*') ? "nullptr" : "0");
    Code += Launch + "); }\n";
    AST = test::parseCuda(Code);
    return *test::definitionOf(ctx(), "k");
  }

  ASTContext &ctx() { return AST->getASTContext(); }

  std::unique_ptr<ASTUnit> AST;
};

TEST_F(VectorizeLegalityTest, SaxpyBuffers) {
  const FunctionDecl &K = parse("int n, float a, const float *x, float *y", R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];)");
  auto Plan = VectorizeLegality::analyze(K, 4, ctx());
  ASSERT_TRUE(static_cast<bool>(Plan)) << toString(Plan.takeError());
  EXPECT_EQ(Plan->Index->getName(), "i");
  EXPECT_FALSE(Plan->EarlyReturn);
  EXPECT_EQ(Plan->Body.size(), 1u);
  EXPECT_EQ(Plan->Accesses.size(), 3u);
  ASSERT_EQ(Plan->Buffers.size(), 2u);
  const VectorBuffer &X = Plan->Buffers[0], &Y = Plan->Buffers[1];
  EXPECT_EQ(X.Param->getName(), "x");
  EXPECT_EQ(X.Vector, "float4");
  EXPECT_TRUE(X.Read && !X.Written && X.Load);
  EXPECT_TRUE(Y.Read && Y.Written && Y.Load);
  ASSERT_EQ(Plan->Launches.size(), 1u);
}

TEST_F(VectorizeLegalityTest, EarlyReturnAndWriteOnlyOutput) {
  const FunctionDecl &K = parse("int *out, const int *in, int n", R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int t = in[i] + 1;
  out[i] = t;)");
  auto Plan = VectorizeLegality::analyze(K, 2, ctx());
  ASSERT_TRUE(static_cast<bool>(Plan)) << toString(Plan.takeError());
  EXPECT_TRUE(Plan->EarlyReturn);
  EXPECT_EQ(Plan->Body.size(), 2u);
  const VectorBuffer *Out = Plan->bufferOf(K.getParamDecl(0));
  ASSERT_TRUE(Out);
  EXPECT_EQ(Out->Vector, "int2");
  EXPECT_TRUE(Out->Written && !Out->Read && !Out->Load);
  EXPECT_EQ(Out->LastWrite, 1u);
}

TEST_F(VectorizeLegalityTest, VectorTypes) {
  EXPECT_EQ(VectorizeLegality::vectorType("float", 4), "float4");
  EXPECT_EQ(VectorizeLegality::vectorType("double", 2), "double2");
  EXPECT_EQ(VectorizeLegality::vectorType("double", 4), "");
  EXPECT_EQ(VectorizeLegality::vectorType("int", 4), "int4");
}

TEST_F(VectorizeLegalityTest, Refusals) {
  auto Why = [&](llvm::StringRef Params, llvm::StringRef Body,
                 unsigned Width = 4) {
    const FunctionDecl &K = parse(Params, Body); // Before ctx() is read.
    auto Plan = VectorizeLegality::analyze(K, Width, ctx());
    EXPECT_FALSE(static_cast<bool>(Plan));
    return Plan ? std::string("legal") : summarize(Plan.takeError()).Message;
  };
  EXPECT_NE(Why("double *y, int n", R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0;)")
                .find("double4 does not exist"),
            std::string::npos);
  EXPECT_NE(Why("const float *a, float *s, int n", R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[i] = a[i + 1];)")
                .find("not at 'i' itself"),
            std::string::npos);
}

TEST_F(VectorizeLegalityTest, ReadsAfterWritesAreTestedAtRunTime) {
  // The vector path loads early: a read after another buffer's write is
  // kept in order by a run-time test that the pointers differ.
  const FunctionDecl &K = parse("const float *a, float *s, float *d, int n",
                                R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { s[i] = 1; d[i] = a[i]; })");
  auto Plan = VectorizeLegality::analyze(K, 4, ctx());
  ASSERT_TRUE(static_cast<bool>(Plan)) << toString(Plan.takeError());
  ASSERT_EQ(Plan->Distinct.size(), 1u);
  EXPECT_EQ(Plan->Distinct[0].first->getName(), "s");
  EXPECT_EQ(Plan->Distinct[0].second->getName(), "a");
}

TEST_F(VectorizeLegalityTest, RestrictNeedsNoTest) {
  // __restrict__ rules the overlap out.
  const FunctionDecl &K = parse(
      "const float *__restrict__ a, float *__restrict__ s, float *d, int n",
      R"(
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { s[i] = 1; d[i] = a[i]; })");
  auto Plan = VectorizeLegality::analyze(K, 4, ctx());
  ASSERT_TRUE(static_cast<bool>(Plan)) << toString(Plan.takeError());
  EXPECT_TRUE(Plan->Distinct.empty());
}

} // namespace
