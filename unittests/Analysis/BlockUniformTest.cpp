//===- BlockUniformTest.cpp - values a whole block agrees on
//---------------===//

#include "optiml/Analysis/Legality/BlockUniform.h"
#include "../Support/CudaTestAST.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"

#include "clang/AST/DeclTemplate.h"
#include "gtest/gtest.h"

using namespace optiml;
using namespace clang;

namespace {

class BlockUniformTest : public ::testing::Test {
protected:
  /// Parses a kernel `k(const int *p, int n, float f)` whose body is
  /// \p Body followed by `if (COND) return;`, and answers for COND.
  bool uniform(llvm::StringRef Prelude, llvm::StringRef Cond) {
    AST = test::parseCuda(
        "__device__ int helper(int x) { return x; }\n"
        "__global__ void k(const int *p, int n, float f) {\n" +
        Prelude.str() + "\n  if (" + Cond.str() + ") return;\n}\n");
    if (!AST)
      return false;
    const FunctionDecl *K = test::definitionOf(ctx(), "k");
    const auto *If = nodesOf<IfStmt>(K->getBody()).back();
    Reached = isReachedByWholeBlock(*If->getThen(), *K, ctx());
    return isBlockUniform(*If->getCond(), *K, ctx());
  }

  ASTContext &ctx() { return AST->getASTContext(); }

  std::unique_ptr<ASTUnit> AST;
  bool Reached = false;
};

TEST_F(BlockUniformTest, BlockIndicesParametersAndTheirLocals) {
  EXPECT_TRUE(uniform("", "blockIdx.x >= n"));
  EXPECT_TRUE(uniform("int row = blockIdx.x * 2 + 1;", "row > n || f < 0.5f"));
  EXPECT_TRUE(uniform("const int w = blockDim.x * gridDim.y;",
                      "(w & (w - 1)) != 0 ? n > 1 : sizeof(int) == 4"));
  EXPECT_TRUE(Reached);
}

TEST_F(BlockUniformTest, NotTheThreadNorMemoryNorChangedValues) {
  EXPECT_FALSE(uniform("", "threadIdx.x < n"));
  EXPECT_FALSE(Reached);
  EXPECT_FALSE(
      uniform("int i = blockIdx.x * blockDim.x + threadIdx.x;", "i >= n"));
  EXPECT_FALSE(uniform("", "p[blockIdx.x] > 0"));
  EXPECT_FALSE(uniform("", "helper(n) > 0"));
  EXPECT_FALSE(uniform("int r = blockIdx.x; r += threadIdx.x;", "r > n"));
  EXPECT_FALSE(uniform("if (threadIdx.x == 0) n = 0;", "n > 0"));
}

TEST_F(BlockUniformTest, TemplateValueParametersAndEnumeratorsAreConstants) {
  AST = test::parseCuda("enum { Width = 8 };\n"
                        "template <int R, typename T>\n"
                        "__global__ void k(const T *p, int n) {\n"
                        "  if (2 * R + Width > n) return;\n"
                        "  if (R + threadIdx.x > n) return;\n"
                        "}\n"
                        "template __global__ void k<3, float>(const float *, "
                        "int);\n");
  ASSERT_TRUE(AST);
  // The template's own body, where R is still a parameter.
  const FunctionDecl *K = nullptr;
  for (const Decl *D : ctx().getTranslationUnitDecl()->decls())
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
      K = T->getTemplatedDecl();
  ASSERT_TRUE(K && K->hasBody());
  auto Ifs = nodesOf<IfStmt>(K->getBody());
  ASSERT_EQ(Ifs.size(), 2u);
  EXPECT_TRUE(isBlockUniform(*Ifs[0]->getCond(), *K, ctx()));
  EXPECT_FALSE(isBlockUniform(*Ifs[1]->getCond(), *K, ctx()));
}

TEST_F(BlockUniformTest, NestedUnderAThreadTestIsNotReachedByAll) {
  AST = test::parseCuda("__global__ void k(int n) {\n"
                        "  if (n > 0) {\n"
                        "    if (threadIdx.x < 32) { n = 1; }\n"
                        "    n = 2;\n"
                        "  }\n"
                        "}\n");
  ASSERT_TRUE(AST);
  const FunctionDecl *K = test::definitionOf(ctx(), "k");
  auto Ifs = nodesOf<IfStmt>(K->getBody());
  ASSERT_EQ(Ifs.size(), 2u);
  // n is assigned in the kernel, so even the outer test is not uniform.
  EXPECT_FALSE(isReachedByWholeBlock(*Ifs[0]->getThen(), *K, ctx()));
}

} // namespace
