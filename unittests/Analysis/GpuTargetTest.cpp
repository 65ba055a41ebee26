//===- GpuTargetTest.cpp - the architecture a kernel is parsed for --------===//

#include "optiml/Analysis/Legality/GpuTarget.h"
#include "optiml/Frontend/CudaToolchain.h"

#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace optiml;

namespace {

/// A kernel parsed as the tool parses it, for \p Arch ("" for the default).
std::unique_ptr<clang::ASTUnit> parseFor(llvm::StringRef Arch) {
  CudaToolchain TC = CudaToolchain::detect("optiml-unittests", "", Arch);
  std::vector<std::string> Args =
      TC.defaultsAdjuster()({"clang++", "-x", "cuda", "-std=c++17"}, "k.cu");
  Args.erase(Args.begin());
  return clang::tooling::buildASTFromCodeWithArgs(
      "__global__ void k(float *p) { p[0] = 1.0f; }\n", Args, "k.cu");
}

TEST(GpuTargetTest, TheDefaultIsSm90) {
  auto AST = parseFor("");
  ASSERT_TRUE(AST);
  EXPECT_EQ(targetSmVersion(AST->getASTContext()), 90u);
  EXPECT_EQ(targetArchName(AST->getASTContext()), "sm_90");
}

TEST(GpuTargetTest, ReadsTheArchitectureParsedFor) {
  for (auto [Arch, Version] : {std::pair<const char *, unsigned>{"sm_75", 75},
                               {"sm_80", 80},
                               {"sm_90a", 90}}) {
    auto AST = parseFor(Arch);
    ASSERT_TRUE(AST) << Arch;
    EXPECT_EQ(targetSmVersion(AST->getASTContext()), Version) << Arch;
    EXPECT_EQ(targetArchName(AST->getASTContext()), Arch);
  }
}

} // namespace
