//===- PragmaScannerTest.cpp - finding `#pragma optiml` ------------------===//

#include "optiml/Analysis/PragmaScanner.h"

#include "gtest/gtest.h"

using namespace optiml;

static std::vector<PragmaScanner::Pragma> scan(llvm::StringRef Text) {
  clang::LangOptions Opts;
  Opts.CPlusPlus = true;
  Opts.CUDA = true;
  return PragmaScanner::scan(Text, Opts);
}

TEST(PragmaScannerTest, FindsMarkWithPosition) {
  auto P = scan(
      "int a;\n  #pragma optiml kernel sizes(N=4)\n__global__ void k();\n");
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Line, 2u);
  EXPECT_EQ(P[0].Column, 3u);
  EXPECT_EQ(P[0].Offset, 9u);
  EXPECT_EQ(P[0].Clauses, "kernel sizes(N=4)");
}

TEST(PragmaScannerTest, JoinsContinuationLines) {
  auto P = scan("#pragma optiml kernel \\\n    sizes(N = 1 << 20)\t\\\n  "
                "tolerance(rtol=1e-5)\nint x;");
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Clauses, "kernel sizes(N = 1 << 20) tolerance(rtol=1e-5)");
}

TEST(PragmaScannerTest, IgnoresOtherPragmasCommentsAndStrings) {
  auto P = scan("#pragma once\n#pragma unroll\n// #pragma optiml kernel\n"
                "/* #pragma optiml kernel */\n"
                "const char *s = \"#pragma optiml kernel\";\n"
                "int y; #pragma optiml not-at-line-start\n");
  EXPECT_TRUE(P.empty());
}

TEST(PragmaScannerTest, SeveralMarksInOrder) {
  auto P = scan("#pragma optiml a\nvoid f();\n# pragma   optiml   b\n");
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P[0].Clauses, "a");
  EXPECT_EQ(P[1].Clauses, "b");
  EXPECT_EQ(P[1].Line, 3u);
}
