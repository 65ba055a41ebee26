//===- NvccFlagsTest.cpp - nvcc to clang command lines -------------------===//

#include "optiml/Frontend/NvccFlags.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace optiml;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Not;

TEST(NvccFlagsTest, CMakeCommandLine) {
  // As CMake 3.25 writes it into compile_commands.json for a CUDA target.
  std::vector<std::string> In = {
      "/usr/local/cuda/bin/nvcc",
      "-forward-unknown-to-host-compiler",
      "-DUSE_X=1",
      "-I/src/include",
      "-O3",
      "-DNDEBUG",
      "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
      "-Xcompiler=-fPIC,-Wall",
      "--expt-relaxed-constexpr",
      "-std=c++17",
      "-x",
      "cu",
      "-c",
      "/src/k.cu",
      "-o",
      "k.o"};
  EXPECT_THAT(
      translateNvccArgs(In),
      ElementsAre("/usr/local/cuda/bin/nvcc", "-DUSE_X=1", "-I/src/include",
                  "-O3", "-DNDEBUG", "--cuda-gpu-arch=sm_90", "-fPIC", "-Wall",
                  "-std=c++17", "-x", "cuda", "-c", "/src/k.cu", "-o", "k.o"));
}

TEST(NvccFlagsTest, DropsBackEndOptionsWithTheirValues) {
  std::vector<std::string> In = {"nvcc",      "-Xptxas",
                                 "-v",        "-ccbin",
                                 "g++-12",    "--use_fast_math",
                                 "-lineinfo", "-maxrregcount=64",
                                 "--threads", "4",
                                 "k.cu"};
  EXPECT_THAT(translateNvccArgs(In), ElementsAre("nvcc", "k.cu"));
}

TEST(NvccFlagsTest, KeepsOneArchitecture) {
  std::vector<std::string> In = {
      "nvcc", "-gencode", "arch=compute_80,code=sm_80", "-arch=sm_90", "k.cu"};
  auto Out = translateNvccArgs(In);
  EXPECT_THAT(Out, Contains("--cuda-gpu-arch=sm_80"));
  EXPECT_THAT(Out, Not(Contains("--cuda-gpu-arch=sm_90")));
}

TEST(NvccFlagsTest, RelocatableDeviceCodeAndLongSpellings) {
  EXPECT_THAT(
      translateNvccArgs({"nvcc", "-rdc=true", "--define-macro", "A=2",
                         "--include-path", "inc", "--std", "c++20", "k.cu"}),
      ElementsAre("nvcc", "-fgpu-rdc", "-DA=2", "-Iinc", "-std=c++20", "k.cu"));
}

TEST(NvccFlagsTest, ClangCommandsPassThrough) {
  std::vector<std::string> In = {
      "clang++", "-x", "cuda", "--cuda-gpu-arch=sm_89", "-O2", "-Wall", "k.cu"};
  EXPECT_EQ(translateNvccArgs(In), In);
}

TEST(NvccFlagsTest, ArchSpellings) {
  EXPECT_EQ(nvccArchToSm("sm_90"), "sm_90");
  EXPECT_EQ(nvccArchToSm("compute_86"), "sm_86");
  EXPECT_EQ(nvccArchToSm("sm_90a"), "sm_90a");
  EXPECT_EQ(nvccArchToSm("arch=compute_90,code=[compute_90,sm_90]"), "sm_90");
  EXPECT_EQ(nvccArchToSm("arch=compute_75"), "sm_75");
  EXPECT_EQ(nvccArchToSm("native"), std::nullopt);
  EXPECT_EQ(nvccArchToSm("all-major"), std::nullopt);
}

TEST(NvccFlagsTest, BuildFlagsKeepWhatTheSourceNeeds) {
  // nvcc spellings, joined and separate values, relative paths.
  std::vector<std::string> In = {"/usr/local/cuda/bin/nvcc",
                                 "--include-path=inc",
                                 "-I",
                                 "/abs/include",
                                 "-isystem=third_party",
                                 "-DUSE_X=1",
                                 "-D",
                                 "TILE=32",
                                 "-UNDEBUG",
                                 "--pre-include",
                                 "config.h",
                                 "-O3",
                                 "-Xcompiler=-fPIC,-Wall",
                                 "--generate-code=arch=compute_90,code=sm_90",
                                 "-std=c++20",
                                 "-x",
                                 "cu",
                                 "-c",
                                 "k.cu",
                                 "-o",
                                 "k.o"};
  EXPECT_THAT(buildFlagsOf(In, "/proj/build"),
              ElementsAre("-I", "/proj/build/inc", "-I", "/abs/include",
                          "-isystem", "/proj/build/third_party", "-DUSE_X=1",
                          "-DTILE=32", "-UNDEBUG", "-include",
                          "/proj/build/config.h", "-std=c++20"));
}

TEST(NvccFlagsTest, BuildFlagsLeaveOldStandardsToOptiml) {
  // The harness needs C++17: an older standard is not passed on, and the
  // GNU dialects get nvcc's spelling.
  EXPECT_THAT(buildFlagsOf({"clang++", "-std=c++14", "-c", "k.cu"}, "/p"),
              ElementsAre());
  EXPECT_THAT(buildFlagsOf({"clang++", "-std=gnu++17", "-c", "k.cu"}, "/p"),
              ElementsAre("-std=c++17"));
  EXPECT_THAT(buildFlagsOf({}, "/p"), ElementsAre());
}
