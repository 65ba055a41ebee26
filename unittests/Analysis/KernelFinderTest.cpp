//===- KernelFinderTest.cpp - kernel inventory on in-memory sources ------===//

#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Frontend/CudaToolchain.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace optiml;

namespace {

class KernelFinderTest : public ::testing::Test {
protected:
  const KernelInventory &inventory(llvm::StringRef Code) {
    CudaToolchain TC = CudaToolchain::detect("optiml-unittests", "", "");
    std::vector<std::string> Args =
        TC.defaultsAdjuster()({"clang++", "-x", "cuda", "-std=c++17"}, "k.cu");
    Args.erase(Args.begin());
    AST = clang::tooling::buildASTFromCodeWithArgs(Code, Args, "k.cu");
    EXPECT_TRUE(AST && !AST->getDiagnostics().hasErrorOccurred());
    Inv = KernelFinder::find(AST->getASTContext());
    return Inv;
  }

  std::unique_ptr<clang::ASTUnit> AST;
  KernelInventory Inv;
};

TEST_F(KernelFinderTest, KernelsOnlyNotHelpers) {
  const auto &I = inventory(R"cu(
    __device__ float twice(float x) { return 2 * x; }
    __host__ __device__ int both() { return 1; }
    __global__ void k1(float *p) { p[0] = twice(1); }
    __global__ void declared_only(int);
    namespace ns { __global__ void k2() {} }
  )cu");
  ASSERT_EQ(I.Kernels.size(), 2u);
  EXPECT_EQ(I.Kernels[0].Name, "k1");
  EXPECT_EQ(I.Kernels[1].QualifiedName, "ns::k2");
  EXPECT_EQ(I.Kernels[1].Pos.Line, 6u); // The raw string starts with a newline.
}

TEST_F(KernelFinderTest, ParameterQualifiers) {
  const auto &I =
      inventory("__global__ void k(const float *__restrict__ in, float *out, "
                "const int n, double *__restrict__ acc) {}");
  ASSERT_EQ(I.Kernels.size(), 1u);
  const auto &P = I.Kernels[0].Params;
  ASSERT_EQ(P.size(), 4u);
  EXPECT_TRUE(P[0].IsPointer && P[0].IsConst && P[0].IsRestrict);
  EXPECT_EQ(P[0].PointeeType, "float");
  EXPECT_TRUE(P[1].IsPointer && !P[1].IsConst && !P[1].IsRestrict);
  EXPECT_TRUE(!P[2].IsPointer && P[2].IsConst);
  EXPECT_EQ(P[3].PointeeType, "double");
  EXPECT_TRUE(P[3].IsRestrict && !P[3].IsConst);
}

TEST_F(KernelFinderTest, NestedLoopSites) {
  const auto &I = inventory(R"cu(
    __global__ void k(float *p, int n) {
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) { while (p[j] > 0) p[j] -= 1; }
        if (n > 2) { for (int j = 0; j < 2; ++j) {} }
      }
      int t = 0;
      do { ++t; } while (t < 3);
      for (int r = 0; r < 4; ++r) {}
    }
  )cu");
  ASSERT_EQ(I.Kernels.size(), 1u);
  std::vector<std::string> Sites;
  for (const LoopSite &L : I.Kernels[0].Loops)
    Sites.push_back(L.Site);
  EXPECT_EQ(Sites, (std::vector<std::string>{
                       "k/for#0", "k/for#0/for#0", "k/for#0/for#0/while#0",
                       "k/for#0/for#1", "k/do#0", "k/for#1"}));
  EXPECT_EQ(I.Kernels[0].Loops[0].Header, "for (int i = 0; i < n; ++i)");
}

TEST_F(KernelFinderTest, TemplatesLaunchesAndAddressTaken) {
  const auto &I = inventory(R"cu(
    template <typename T, int B>
    __global__ void __launch_bounds__(B) fill(T *p, T v) { p[threadIdx.x] = v; }
    template __global__ void fill<float, 128>(float *, float);
    __global__ void other() {}
    void host(float *p, cudaStream_t s) {
      fill<float, 128><<<dim3(2), 128, 0, s>>>(p, 1.0f);
      fill<int, 64><<<1, 64>>>(nullptr, 3);
      void *addr = (void *)other;
      (void)addr;
    }
  )cu");
  ASSERT_EQ(I.Kernels.size(), 2u);
  const KernelInfo &Fill = I.Kernels[0];
  EXPECT_EQ(Fill.TemplateParameters,
            (std::vector<std::string>{"typename T", "int B"}));
  ASSERT_EQ(Fill.Instantiations.size(), 2u);
  EXPECT_EQ(Fill.Instantiations[0].Arguments, "<float, 128>");
  EXPECT_EQ(Fill.Instantiations[0].Kind, "explicit");
  EXPECT_EQ(Fill.Instantiations[1].Kind, "implicit");
  ASSERT_TRUE(Fill.Bounds.has_value());
  EXPECT_EQ(Fill.Bounds->MaxThreads, "B");
  ASSERT_EQ(Fill.Launches.size(), 2u);
  EXPECT_EQ(Fill.Launches[0].Caller, "host");
  EXPECT_EQ(Fill.Launches[0].Grid, "dim3(2)");
  EXPECT_EQ(Fill.Launches[0].Block, "128");
  EXPECT_EQ(Fill.Launches[0].Stream, "s");
  EXPECT_EQ(Fill.Launches[1].SharedMemory, "");
  EXPECT_FALSE(Fill.AddressTaken);
  EXPECT_TRUE(I.Kernels[1].AddressTaken);
  EXPECT_TRUE(I.Kernels[1].Launches.empty());
}

TEST_F(KernelFinderTest, MarksAttachToTheNextKernelOnly) {
  const auto &I = inventory("#pragma optiml kernel sizes(N=8)\n"
                            "__global__ void a() {}\n"
                            "#pragma optiml stray\n"
                            "int x;\n"
                            "__global__ void b() {}\n"
                            "#pragma optiml kernel\n"
                            "extern \"C\" __global__ void c() {}\n");
  ASSERT_EQ(I.Kernels.size(), 3u);
  ASSERT_TRUE(I.Kernels[0].Mark.has_value());
  EXPECT_EQ(I.Kernels[0].Mark->Clauses, "kernel sizes(N=8)");
  EXPECT_EQ(I.Kernels[0].Mark->Pos.Line, 1u);
  EXPECT_FALSE(I.Kernels[1].Mark.has_value());
  EXPECT_TRUE(I.Kernels[2].Mark.has_value());
  ASSERT_EQ(I.Warnings.size(), 1u);
  EXPECT_NE(I.Warnings[0].find(":3:1: warning: '#pragma optiml' is not "
                               "followed by a __global__"),
            std::string::npos);
}

} // namespace
