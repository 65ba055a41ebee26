//===- OccupancyTest.cpp - the occupancy calculator's arithmetic ----------===//

#include "optiml/Profile/Occupancy.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

const DeviceLimits H200 = DeviceLimits::sm90();

TEST(OccupancyTest, FullWhenNothingBinds) {
  Occupancy O = computeOccupancy(H200, 256, 32, 0);
  EXPECT_EQ(O.WarpsPerBlock, 8u);
  EXPECT_EQ(O.BlocksPerSM, 8u);
  EXPECT_EQ(O.Limiter, "warps");
  EXPECT_DOUBLE_EQ(O.Theoretical, 1.0);
}

TEST(OccupancyTest, RegistersBind) {
  // 64 registers x 32 threads = 2048 per warp: 32 warps, 4 blocks of 8.
  Occupancy O = computeOccupancy(H200, 256, 64, 0);
  EXPECT_EQ(O.ByRegisters, 4u);
  EXPECT_EQ(O.Limiter, "registers");
  EXPECT_DOUBLE_EQ(O.Theoretical, 0.5);
}

TEST(OccupancyTest, RegistersAreAllocatedPerWarpInUnits) {
  // 33 registers round up to 1280 per warp (5 units of 256): 51 warps fit,
  // 6 blocks of 8 warps.
  EXPECT_EQ(computeOccupancy(H200, 256, 33, 0).BlocksPerSM, 6u);
}

TEST(OccupancyTest, SharedMemoryBindsWithTheReservedKilobyte) {
  // 48 KiB + 1 KiB reserved per block: 4 blocks in 228 KiB.
  Occupancy O = computeOccupancy(H200, 128, 32, 48 * 1024);
  EXPECT_EQ(O.ByShared, 4u);
  EXPECT_EQ(O.Limiter, "shared");
  EXPECT_DOUBLE_EQ(O.Theoretical, 0.25);
}

TEST(OccupancyTest, TinyBlocksHitTheBlockLimit) {
  Occupancy O = computeOccupancy(H200, 32, 16, 0);
  EXPECT_EQ(O.BlocksPerSM, 32u);
  EXPECT_EQ(O.Limiter, "blocks");
  EXPECT_DOUBLE_EQ(O.Theoretical, 0.5);
}

TEST(OccupancyTest, BlockSizeThatDoesNotDivideTheSM) {
  Occupancy O = computeOccupancy(H200, 768, 16, 0);
  EXPECT_EQ(O.BlocksPerSM, 2u);
  EXPECT_DOUBLE_EQ(O.Theoretical, 0.75);
}

TEST(OccupancyTest, ArchitectureTable) {
  EXPECT_TRUE(DeviceLimits::forArch("sm_90a").has_value());
  EXPECT_EQ(DeviceLimits::forArch("9.0")->SharedBytesPerSM, 228u * 1024);
  EXPECT_EQ(DeviceLimits::forArch("sm_80")->SharedBytesPerSM, 164u * 1024);
  EXPECT_EQ(DeviceLimits::forArch("sm_86")->MaxThreadsPerSM, 1536u);
  EXPECT_FALSE(DeviceLimits::forArch("sm_20").has_value());
}

} // namespace
