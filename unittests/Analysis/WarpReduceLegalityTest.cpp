//===- WarpReduceLegalityTest.cpp - tree reductions and their limits ------===//

#include "transforms/WarpReduce/WarpReduceLegality.h"
#include "../Support/CudaTestAST.h"
#include "optiml/Analysis/Legality/LegalityError.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace optiml;
using namespace clang;

namespace {

class WarpReduceLegalityTest : public ::testing::Test {
protected:
  /// Parses \p Code, which defines a kernel `k`.
  void parse(llvm::StringRef Code) {
    AST = test::parseCuda(Code);
    ASSERT_TRUE(AST);
  }

  ASTContext &ctx() { return AST->getASTContext(); }

  /// Kernel `k` and its first for-loop, analyzed.
  llvm::Expected<TreeReduction> analyze() {
    using namespace ast_matchers;
    auto Found =
        match(findAll(functionDecl(hasName("k"), isDefinition(),
                                   hasDescendant(forStmt().bind("for")))
                          .bind("k")),
              *ctx().getTranslationUnitDecl(), ctx());
    EXPECT_EQ(Found.size(), 1u);
    return WarpReduceLegality::analyze(
        *Found.front().getNodeAs<ForStmt>("for"), "k/for#0",
        *Found.front().getNodeAs<FunctionDecl>("k"), ctx());
  }

  /// "illegal: reason" or "not-applicable: reason".
  static std::string refusal(llvm::Error E) {
    std::string Out = "accepted";
    llvm::handleAllErrors(std::move(E), [&](const LegalityError &L) {
      Out =
          (L.kind() == ErrorKind::Illegal ? "illegal: " : "not-applicable: ") +
          L.reason();
    });
    return Out;
  }

  std::unique_ptr<ASTUnit> AST;
};

/// A kernel `k` with a tree over `T buf[N]` whose step is \p Step, launched
/// with \p Block.
std::string
tree(llvm::StringRef Step, llvm::StringRef Block = "256",
     llvm::StringRef Type = "float",
     llvm::StringRef Head = "int s = blockDim.x / 2; s > 0; s /= 2") {
  return ("__global__ void k(" + Type + " *out) {\n  __shared__ " + Type +
          " buf[1024];\n  for (" + Head +
          ") {\n    if (threadIdx.x < s)\n      " + Step +
          ";\n    __syncthreads();\n  }\n  out[blockIdx.x] = buf[0];\n}\n" +
          "void host(" + Type + " *out) { k<<<1, " + Block + ">>>(out); }\n")
      .str();
}

TEST_F(WarpReduceLegalityTest, RecognizesTheTree) {
  parse(tree("buf[threadIdx.x] += buf[threadIdx.x + s]"));
  auto R = analyze();
  ASSERT_TRUE(bool(R)) << refusal(R.takeError());
  EXPECT_EQ(R->Stride->getName().str(), "s");
  EXPECT_EQ(R->Buffer->getName().str(), "buf");
  EXPECT_EQ(R->Op.How, ReduceOp::Compound);
  EXPECT_EQ(R->Op.Spelling, "+");
  EXPECT_FALSE(R->Start.has_value());
  EXPECT_FALSE(R->Carried);
  EXPECT_FALSE(R->TestBlockAtRunTime);
}

TEST_F(WarpReduceLegalityTest, KeepsTheOperandOrder) {
  parse(tree("buf[threadIdx.x] = fminf(buf[s + threadIdx.x], buf[threadIdx.x])",
             "512", "float", "int s = 128; s >= 1; s >>= 1"));
  auto R = analyze();
  ASSERT_TRUE(bool(R)) << refusal(R.takeError());
  EXPECT_EQ(R->Op.How, ReduceOp::Call);
  EXPECT_EQ(R->Op.Spelling, "fminf");
  EXPECT_FALSE(R->Op.OwnFirst);
  EXPECT_EQ(R->Start, 128u);
  EXPECT_EQ(R->Op.combine("a", "b"), "fminf(b, a)");
}

TEST_F(WarpReduceLegalityTest, CombinesInTheTreesOrder) {
  ReduceOp Plus{ReduceOp::Binary, "+", true};
  EXPECT_EQ(Plus.combine("own", "other"), "own + other");
  Plus.OwnFirst = false;
  EXPECT_EQ(Plus.combine("own", "other"), "other + own");
}

TEST_F(WarpReduceLegalityTest, RefusesOtherLoops) {
  parse(tree("buf[threadIdx.x] -= buf[threadIdx.x + s]"));
  EXPECT_EQ(refusal(analyze().takeError()).substr(0, 34),
            "not-applicable: the step is not 'b");
  parse(tree("buf[threadIdx.x] += buf[threadIdx.x + s]", "256", "short"));
  EXPECT_EQ(refusal(analyze().takeError()),
            "not-applicable: elements of type 'short' cannot be exchanged by "
            "__shfl_down_sync (int, unsigned, long, long long, float or "
            "double only)");
}

TEST_F(WarpReduceLegalityTest, RefusesBlocksWithoutAFullWarpTree) {
  parse(tree("buf[threadIdx.x] += buf[threadIdx.x + s]", "32"));
  EXPECT_EQ(refusal(analyze().takeError()),
            "illegal: this launch uses a block of (32, 1, 1); warp-reduce "
            "needs (x, 1, 1) with x a power of two from 64 to 1024");
  parse(tree("buf[threadIdx.x] += buf[threadIdx.x + s]", "dim3(128, 2)"));
  EXPECT_EQ(refusal(analyze().takeError()),
            "illegal: this launch uses a block of (128, 2, 1); warp-reduce "
            "needs (x, 1, 1) with x a power of two from 64 to 1024");
}

TEST_F(WarpReduceLegalityTest, TestsAMarkedBlockAtRunTime) {
  parse("#pragma optiml kernel sizes(N = 1) out(out[1]) grid(1) block(64)\n"
        "__global__ void k(float *out) {\n"
        "  __shared__ float buf[64];\n"
        "  for (int s = blockDim.x / 2; s > 0; s /= 2) {\n"
        "    if (threadIdx.x < s)\n"
        "      buf[threadIdx.x] += buf[threadIdx.x + s];\n"
        "    __syncthreads();\n"
        "  }\n"
        "  out[0] = buf[0];\n"
        "}\n");
  auto R = analyze();
  ASSERT_TRUE(bool(R)) << refusal(R.takeError());
  // No launch in the file: callers elsewhere may use any block.
  EXPECT_TRUE(R->TestBlockAtRunTime);
}

TEST_F(WarpReduceLegalityTest, TestsABlockUnknownAtALaunch) {
  std::string Code = tree("buf[threadIdx.x] += buf[threadIdx.x + s]");
  Code.replace(Code.find("void host(float *out)"), 21,
               "void host(float *out, int threads)");
  Code.replace(Code.find("k<<<1, 256>>>"), 13, "k<<<1, threads>>>");
  parse(Code);
  auto R = analyze();
  ASSERT_TRUE(bool(R)) << refusal(R.takeError());
  EXPECT_TRUE(R->TestBlockAtRunTime);
}

/// Kernel `k`: a row per block, left early by whole blocks, with the
/// partial carried in `v` and read by thread 0 after the tree through
/// \p After.
std::string rowTree(llvm::StringRef Exit, llvm::StringRef After) {
  return ("__global__ void k(float *out, const float *in, int rows) {\n"
          "  __shared__ float buf[256];\n"
          "  int row = blockIdx.x;\n"
          "  unsigned t = threadIdx.x;\n"
          "  if (" +
          Exit +
          ") return;\n"
          "  float v = in[row * 256 + t];\n"
          "  buf[t] = v;\n"
          "  __syncthreads();\n"
          "  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {\n"
          "    if (t < s)\n"
          "      buf[t] = v = v + buf[t + s];\n"
          "    __syncthreads();\n"
          "  }\n" +
          After +
          "}\n"
          "void host(float *o, const float *i) { k<<<8, 256>>>(o, i, 8); }\n")
      .str();
}

TEST_F(WarpReduceLegalityTest, FollowsAPartialCarriedInARegister) {
  parse(rowTree("row >= rows", "  if (t == 0) out[row] = v;\n"));
  auto R = analyze();
  ASSERT_TRUE(bool(R)) << refusal(R.takeError());
  ASSERT_TRUE(R->Carried);
  EXPECT_EQ(R->Carried->getName().str(), "v");
  EXPECT_EQ(R->Op.How, ReduceOp::Binary);
  EXPECT_TRUE(R->Op.OwnFirst);
  // Lanes 1..31 end with other partials in v.
  parse(rowTree("row >= rows", "  out[row * 256 + t] = v;\n"));
  EXPECT_EQ(refusal(analyze().takeError()),
            "illegal: 'v' is used after the loop outside 'if (t == 0)', but "
            "after warp-reduce only thread 0 holds the tree's partial in it");
}

TEST_F(WarpReduceLegalityTest, AcceptsReturnsOfWholeBlocksOnly) {
  parse(rowTree("row * 2 + 1 > rows && gridDim.x > 1",
                "  if (!t) out[row] = v;\n"));
  auto R = analyze();
  EXPECT_TRUE(bool(R)) << refusal(R.takeError());
  parse(rowTree("row * blockDim.x + t >= rows * 256",
                "  if (t == 0) out[row] = v;\n"));
  EXPECT_EQ(refusal(analyze().takeError()),
            "illegal: threads may return here, before the reduction, and "
            "others not, so warp 0 may reach the shuffles with threads "
            "missing");
}

TEST_F(WarpReduceLegalityTest, ReadsElementsEachThreadStoredAgain) {
  parse(rowTree("row >= rows", "  float total = buf[0];\n"
                               "  __syncthreads();\n"
                               "  buf[t] = total * 2.0f;\n"
                               "  __syncthreads();\n"
                               "  out[row * 256 + t] = buf[255 - t];\n"));
  auto R = analyze();
  EXPECT_TRUE(bool(R)) << refusal(R.takeError());
  // Stored again only under a condition: not every element is new.
  parse(rowTree("row >= rows", "  if (t > 8) buf[t] = 0.0f;\n"
                               "  __syncthreads();\n"
                               "  out[row * 256 + t] = buf[255 - t];\n"));
  EXPECT_EQ(refusal(analyze().takeError()),
            "illegal: 'buf[255 - t]' is read after the loop, but after "
            "warp-reduce only buf[0] holds the tree's result");
}

TEST_F(WarpReduceLegalityTest, RefusesReadsOfTheLeftovers) {
  std::string Code = tree("buf[threadIdx.x] += buf[threadIdx.x + s]");
  Code.replace(Code.find("buf[0];"), 7, "buf[0] + buf[threadIdx.x];");
  parse(Code);
  EXPECT_EQ(refusal(analyze().takeError()),
            "illegal: 'buf[threadIdx.x]' is read after the loop, but after "
            "warp-reduce only buf[0] holds the tree's result");
}

} // namespace
