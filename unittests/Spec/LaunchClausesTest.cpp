//===- LaunchClausesTest.cpp - a kernel's own launch in a shared spec ----===//

#include "optiml/Spec/LaunchClauses.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

const char Shared[] = "kernel sizes(R = 4, C = 8) in(x[R * C]) out(y[R]) "
                      "grid(ceil_div(R, 128)) block(128) shmem(0) "
                      "tolerance(rtol = 1e-4)";

TEST(LaunchClausesTest, ReplacesGridBlockAndShmem) {
  auto C = withLaunch(Shared, "grid(R) block(256) shmem(256 * 4)");
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(*C, "kernel sizes(R = 4, C = 8) in(x[R * C]) out(y[R]) "
                "tolerance(rtol = 1e-4) grid(R) block(256) shmem(256 * 4)");
}

TEST(LaunchClausesTest, NestedParenthesesAndContinuations) {
  auto C = withLaunch("kernel sizes(N = 4) \\\n out(y[N]) grid(1) block(1)",
                      "grid((N + (255)) / 256, 1) \\\n block(256)");
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(*C, "kernel sizes(N = 4) out(y[N]) grid((N + (255)) / 256, 1) "
                "block(256)");
}

TEST(LaunchClausesTest, RefusesOtherClausesAndMissingOnes) {
  auto Other = withLaunch(Shared, "grid(R) block(32) sizes(R = 9)");
  ASSERT_FALSE(bool(Other));
  EXPECT_EQ(llvm::toString(Other.takeError()),
            "the launch 'grid(R) block(32) sizes(R = 9)' has 'sizes'; "
            "expected only grid(...), block(...) and shmem(...)");
  auto NoBlock = withLaunch(Shared, "grid(R)");
  ASSERT_FALSE(bool(NoBlock));
  EXPECT_EQ(llvm::toString(NoBlock.takeError()),
            "the launch 'grid(R)' has no block(...) clause");
  auto Open = withLaunch(Shared, "grid(R block(32)");
  ASSERT_FALSE(bool(Open));
  EXPECT_NE(llvm::toString(Open.takeError()).find("unbalanced parenthesis"),
            std::string::npos);
}

// A model's clauses span lines; the error quoting them does not.
TEST(LaunchClausesTest, ErrorsAreOneLine) {
  auto Bad =
      withLaunch("kernel sizes(N = 4) \\\n out(y[N]) $", "grid(1) block(1)");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "unexpected '$' in 'kernel sizes(N = 4) \\\\n out(y[N]) $'; "
            "expected a clause such as grid(...)");
}

} // namespace
