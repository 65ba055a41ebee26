//===- BuilderTest.cpp - launchers compiled by the real nvcc -------------===//
//
// Runs nvcc (present wherever OptiML builds); no GPU is needed to compile.
//
//===----------------------------------------------------------------------===//

#include "optiml/Eval/Builder.h"
#include "optiml/Eval/LauncherGenerator.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Subprocess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace optiml;

namespace {

KernelInfo saxpyInfo() {
  KernelInfo K;
  K.Name = K.QualifiedName = "saxpy";
  return K;
}

const char SaxpySource[] =
    "#include <cstdio>\n"
    "__global__ void saxpy(int n, float a, const float *x, float *y) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "int main() { std::printf(\"user main\\n\"); return 0; }\n";

class BuilderTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-builds", Dir));
    CacheRoot = std::string(Dir);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(CacheRoot); }

  Builder makeBuilder() {
    BuildOptions O;
    O.CacheRoot = CacheRoot;
    auto B = Builder::create(O);
    if (!B) {
      ADD_FAILURE() << summarize(B.takeError()).Message;
      std::abort();
    }
    return std::move(*B);
  }

  std::string CacheRoot;
};

TEST(LauncherGeneratorTest, AppendsTheABIAndRenamesMain) {
  auto L =
      generateLauncher(KernelSource("/src/saxpy.cu", SaxpySource), saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(L));
  EXPECT_EQ(
      L->find("#define main optiml_user_main_\n#line 1 \"/src/saxpy.cu\""), 0u);
  EXPECT_NE(L->find("extern \"C\" int optiml_launch("), std::string::npos);
  EXPECT_NE(L->find("reinterpret_cast<const void *>(&::saxpy)"),
            std::string::npos);
  EXPECT_NE(L->find("return \"saxpy\";"), std::string::npos);
}

TEST(LauncherGeneratorTest, TemplatesAreRefused) {
  KernelInfo K = saxpyInfo();
  K.TemplateParameters = {"typename T"};
  auto L = generateLauncher(KernelSource("k.cu", SaxpySource), K);
  ASSERT_FALSE(static_cast<bool>(L));
  EXPECT_EQ(summarize(L.takeError()).Kind, ErrorKind::Illegal);
}

TEST_F(BuilderTest, NvccReleaseIsOneLineNamingTheRelease) {
  // Part of the search database's toolchain key: one line, the release.
  std::string R = makeBuilder().nvccRelease();
  EXPECT_NE(R.find("release"), std::string::npos) << R;
  EXPECT_EQ(R.find('\n'), std::string::npos) << R;
}

TEST_F(BuilderTest, BuildsSharedObjectWithTheABIAndCachesIt) {
  Builder B = makeBuilder();
  KernelSource Src(CacheRoot + "/saxpy.cu", SaxpySource);
  auto R = B.build(Src, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(R)) << summarize(R.takeError()).Message;
  ASSERT_TRUE(R->Succeeded) << R->Log;
  EXPECT_FALSE(R->Cached);
  ASSERT_TRUE(R->Usage.has_value());
  EXPECT_GT(R->Usage->Registers, 0u);

  // The shared object exports the two C entry points and no `main`.
  std::string Nm = findProgram("nm");
  ASSERT_FALSE(Nm.empty());
  auto Syms = runSubprocess(Nm, {Nm, "-D", "--defined-only", R->Library}, 60);
  ASSERT_TRUE(static_cast<bool>(Syms));
  EXPECT_NE(Syms->Output.find(" T optiml_launch"), std::string::npos);
  EXPECT_NE(Syms->Output.find(" T optiml_kernel_name"), std::string::npos);
  EXPECT_EQ(Syms->Output.find(" T main\n"), std::string::npos);

  auto Again = B.build(Src, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(Again));
  EXPECT_TRUE(Again->Cached);
  EXPECT_EQ(Again->Key, R->Key);
  EXPECT_EQ(Again->Library, R->Library);
}

TEST_F(BuilderTest, CompileErrorIsARecordedResult) {
  Builder B = makeBuilder();
  KernelSource Bad(CacheRoot + "/bad.cu",
                   "__global__ void saxpy(float *p) { p[0] = nope; }\n");
  auto R = B.build(Bad, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(R));
  EXPECT_FALSE(R->Succeeded);
  EXPECT_NE(R->Log.find("nope"), std::string::npos);
  // Failures are remembered, never retried.
  auto Again = B.build(Bad, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(Again));
  EXPECT_TRUE(Again->Cached);
  EXPECT_FALSE(Again->Succeeded);
}

TEST_F(BuilderTest, ParallelBuildsKeepRequestOrder) {
  Builder B = makeBuilder();
  KernelSource A(CacheRoot + "/a.cu", SaxpySource);
  KernelSource C(CacheRoot + "/c.cu",
                 std::string(SaxpySource) + "// a different candidate\n");
  KernelInfo K = saxpyInfo();
  auto Results = B.buildAll({{&A, &K}, {&C, &K}}, 2);
  ASSERT_EQ(Results.size(), 2u);
  ASSERT_TRUE(Results[0] && Results[1]);
  EXPECT_TRUE(Results[0]->Succeeded && Results[1]->Succeeded);
  EXPECT_NE(Results[0]->Key, Results[1]->Key);
}

} // namespace
