//===- UnifiedDiffTest.cpp - the report's diffs ---------------------------===//

#include "optiml/Search/UnifiedDiff.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

TEST(UnifiedDiffTest, EqualTextsHaveNoDiff) {
  EXPECT_EQ(unifiedDiff("a\nb\n", "a\nb\n", "a", "b"), "");
}

TEST(UnifiedDiffTest, OneHunkWithContext) {
  const char *Old = "1\n2\n3\n4\n5\n6\n7\n8\n";
  const char *New = "1\n2\n3\n4\nfive\n6\n7\n8\n";
  EXPECT_EQ(unifiedDiff(Old, New, "a/k.cu", "b/k.cu"),
            "--- a/k.cu\n+++ b/k.cu\n"
            "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST(UnifiedDiffTest, DistantChangesGetTheirOwnHunks) {
  std::string Old, New;
  for (int I = 1; I <= 20; ++I) {
    Old += std::to_string(I) + "\n";
    New += (I == 2 ? "two" : I == 18 ? "eighteen" : std::to_string(I)) + "\n";
  }
  EXPECT_EQ(unifiedDiff(Old, New, "a", "b", 1),
            "--- a\n+++ b\n"
            "@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n"
            "@@ -17,3 +17,3 @@\n 17\n-18\n+eighteen\n 19\n");
}

// As GNU diff -U1: changes two equal lines apart share a hunk, three
// apart do not.
TEST(UnifiedDiffTest, CloseChangesShareAHunk) {
  EXPECT_EQ(unifiedDiff("a\nb\nc\nd\n", "A\nb\nc\nD\n", "x", "y", 1),
            "--- x\n+++ y\n"
            "@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n-d\n+D\n");
  EXPECT_EQ(unifiedDiff("a\nb\nc\nd\ne\n", "A\nb\nc\nd\nE\n", "x", "y", 1),
            "--- x\n+++ y\n"
            "@@ -1,2 +1,2 @@\n-a\n+A\n b\n"
            "@@ -4,2 +4,2 @@\n d\n-e\n+E\n");
}

TEST(UnifiedDiffTest, InsertionsIntoAnEmptyFile) {
  EXPECT_EQ(unifiedDiff("", "x\ny\n", "a", "b"),
            "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n");
}

TEST(UnifiedDiffTest, AnInsertedStatement) {
  const char *Old = "__global__ void k(float *x) {\n"
                    "  for (int i = 0; i < 4; ++i)\n"
                    "    x[i] *= 2;\n"
                    "}\n";
  const char *New = "__global__ void k(float *x) {\n"
                    "#pragma unroll 4\n"
                    "  for (int i = 0; i < 4; ++i)\n"
                    "    x[i] *= 2;\n"
                    "}\n";
  EXPECT_EQ(unifiedDiff(Old, New, "a", "b"), "--- a\n+++ b\n@@ -1,4 +1,5 @@\n"
                                             " __global__ void k(float *x) {\n"
                                             "+#pragma unroll 4\n"
                                             "   for (int i = 0; i < 4; ++i)\n"
                                             "     x[i] *= 2;\n"
                                             " }\n");
}

} // namespace
