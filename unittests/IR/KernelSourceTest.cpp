//===- KernelSourceTest.cpp - sources are values -------------------------===//

#include "optiml/IR/KernelSource.h"
#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

using namespace optiml;

TEST(KernelSourceTest, HashDependsOnTextOnly) {
  KernelSource A("a.cu", "__global__ void k() {}");
  KernelSource B("elsewhere/b.cu", "__global__ void k() {}");
  KernelSource C("a.cu", "__global__ void k() { }");
  EXPECT_EQ(A.hash(), B.hash());
  EXPECT_NE(A.hash(), C.hash());
  EXPECT_EQ(A.hash().size(), 64u);
}

TEST(KernelSourceTest, MissingFileIsBadInput) {
  auto S = KernelSource::fromFile("/nonexistent/optiml/x.cu");
  ASSERT_FALSE(static_cast<bool>(S));
  ErrorSummary E = summarize(S.takeError());
  EXPECT_EQ(E.Kind, ErrorKind::BadInput);
  EXPECT_NE(E.Message.find("/nonexistent/optiml/x.cu"), std::string::npos);
}
