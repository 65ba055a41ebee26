//===- ResourceUsageTest.cpp - reading ptxas reports ---------------------===//

#include "optiml/Eval/ResourceUsage.h"
#include "optiml/Protocol/KernelAttributes.h"

#include "gtest/gtest.h"

using namespace optiml;

// As nvcc 13.0 --resource-usage prints it for two kernels of one file.
static const char Log[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z6helperPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z6helperPf\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 8 registers, used 0 barriers\n"
    "ptxas info    : Compiling entry function '_Z5sgemmPKfS0_Pfiii' for "
    "'sm_90'\n"
    "ptxas info    : Function properties for _Z5sgemmPKfS0_Pfiii\n"
    "    256 bytes stack frame, 16 bytes spill stores, 24 bytes spill loads\n"
    "ptxas info    : Used 32 registers, used 1 barriers, 256 bytes "
    "cumulative stack size, 1024 bytes smem\n"
    "ptxas info    : Compile time = 7.233 ms\n";

TEST(ResourceUsageTest, PicksTheKernelsEntry) {
  auto U = parseResourceUsage(Log, "sgemm");
  ASSERT_TRUE(U.has_value());
  EXPECT_EQ(U->Function, "_Z5sgemmPKfS0_Pfiii");
  EXPECT_EQ(U->Registers, 32u);
  EXPECT_EQ(U->Barriers, 1u);
  EXPECT_EQ(U->SharedBytes, 1024u);
  EXPECT_EQ(U->StackFrameBytes, 256u);
  EXPECT_EQ(U->SpillStoreBytes, 16u);
  EXPECT_EQ(U->SpillLoadBytes, 24u);
}

TEST(ResourceUsageTest, NameMustMatchWholeMangledIdentifier) {
  // "gemm" is inside "sgemm" but is not its mangled name ("4gemm").
  EXPECT_FALSE(parseResourceUsage(Log, "gemm").has_value());
  auto H = parseResourceUsage(Log, "helper");
  ASSERT_TRUE(H.has_value());
  EXPECT_EQ(H->Registers, 8u);
  EXPECT_EQ(H->SharedBytes, 0u);
}

TEST(ResourceUsageTest, ExternCKernel) {
  auto U = parseResourceUsage(
      "ptxas info    : Compiling entry function 'vadd' for 'sm_90'\n"
      "ptxas info    : Used 12 registers, used 0 barriers\n",
      "vadd");
  ASSERT_TRUE(U.has_value());
  EXPECT_EQ(U->Registers, 12u);
}

TEST(ResourceUsageTest, TheDriversFiguresReplacePtxasEstimate) {
  protocol::KernelAttributes Loaded;
  Loaded.Registers = 40;
  Loaded.SharedBytes = 2048;
  Loaded.LocalBytes = 128;
  ResourceUsage U =
      withLoadedAttributes(parseResourceUsage(Log, "sgemm"), Loaded, "sgemm");
  EXPECT_EQ(U.Source, "driver");
  EXPECT_EQ(U.Function, "_Z5sgemmPKfS0_Pfiii");
  EXPECT_EQ(U.Registers, 40u);
  EXPECT_EQ(U.SharedBytes, 2048u);
  EXPECT_EQ(U.StackFrameBytes, 128u);
  // The driver does not report spills or barriers: ptxas' stay.
  EXPECT_EQ(U.SpillStoreBytes, 16u);
  EXPECT_EQ(U.SpillLoadBytes, 24u);
  EXPECT_EQ(U.Barriers, 1u);

  // Without a ptxas report (a cached build whose log is gone) the driver's
  // figures stand alone, named by the kernel.
  ResourceUsage Alone = withLoadedAttributes(std::nullopt, Loaded, "sgemm");
  EXPECT_EQ(Alone.Function, "sgemm");
  EXPECT_EQ(Alone.Registers, 40u);
  EXPECT_EQ(Alone.SpillStoreBytes, 0u);
}
