//===- AtomicUpdatesTest.cpp - which uses of a buffer are order-free ------===//

#include "optiml/Analysis/Legality/AtomicUpdates.h"
#include "../Support/CudaTestAST.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"

#include "gtest/gtest.h"

using namespace optiml;
using namespace clang;

namespace {

class AtomicUpdatesTest : public ::testing::Test {
protected:
  /// Whether `bins` of a kernel `k(const int *keys, unsigned *bins, float
  /// *f, int n)` with body \p Body is only updated atomically.
  bool onlyUpdates(llvm::StringRef Body, llvm::StringRef Buffer = "bins") {
    AST = test::parseCuda("__global__ void k(const int *keys, unsigned *bins, "
                          "float *f, int n) {\n" +
                          Body.str() + "\n}\n");
    if (!AST)
      return false;
    const FunctionDecl *K = test::definitionOf(ctx(), "k");
    if (!K)
      return false;
    for (const ParmVarDecl *P : K->parameters())
      if (P->getName() == Buffer)
        return onlyAtomicUpdates(*P, *K->getBody(), ctx());
    ADD_FAILURE() << "no parameter " << Buffer.str();
    return false;
  }

  ASTContext &ctx() { return AST->getASTContext(); }

  std::unique_ptr<ASTUnit> AST;
};

TEST_F(AtomicUpdatesTest, OrderFreeUpdatesInEitherAddressForm) {
  EXPECT_TRUE(onlyUpdates("atomicAdd(&bins[keys[threadIdx.x]], 1u);"));
  EXPECT_TRUE(onlyUpdates("atomicMax(bins + keys[threadIdx.x], 7u);"));
  EXPECT_TRUE(onlyUpdates("atomicOr(keys[threadIdx.x] + bins, 1u);\n"
                          "atomicInc(&bins[0], 100u);"));
  EXPECT_TRUE(onlyUpdates("atomicAdd(&f[0], 1.0f);", "f"));
}

TEST_F(AtomicUpdatesTest, OrderMattersOrTheBufferIsReadOtherwise) {
  // The last exchange wins, and a compare-and-swap reads what it replaces.
  EXPECT_FALSE(onlyUpdates("atomicExch(&bins[0], 1u);"));
  EXPECT_FALSE(onlyUpdates("atomicCAS(&bins[0], 0u, 1u);"));
  // The old value used: each thread sees where the others got to.
  EXPECT_FALSE(onlyUpdates("unsigned t = atomicAdd(&bins[0], 1u);\n"
                           "f[threadIdx.x] = t;"));
  // A plain read or store beside the updates.
  EXPECT_FALSE(onlyUpdates("atomicAdd(&bins[0], 1u);\nf[0] = bins[1];"));
  EXPECT_FALSE(onlyUpdates("bins[threadIdx.x] = 0;"));
  // Never used: nothing to say it is only updated.
  EXPECT_FALSE(onlyUpdates("f[0] = 1.0f;"));
}

TEST_F(AtomicUpdatesTest, TheUpdateNamesItsBufferAndIndex) {
  AST = test::parseCuda("__global__ void k(unsigned *bins, int i) {\n"
                        "  atomicSub(bins + i, 2u);\n}\n");
  ASSERT_TRUE(AST);
  std::vector<const CallExpr *> Calls =
      nodesOf<CallExpr>(test::definitionOf(ctx(), "k")->getBody());
  ASSERT_FALSE(Calls.empty());
  std::optional<AtomicUpdate> U = atomicUpdateOf(*Calls.front());
  ASSERT_TRUE(U.has_value());
  EXPECT_EQ(U->Buffer->getDecl()->getName(), "bins");
  const auto *Index = dyn_cast<DeclRefExpr>(U->Index->IgnoreParenImpCasts());
  ASSERT_NE(Index, nullptr);
  EXPECT_EQ(Index->getDecl()->getName(), "i");
}

} // namespace
