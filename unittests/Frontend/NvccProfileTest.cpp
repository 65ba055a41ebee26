//===- NvccProfileTest.cpp - nvcc's own header search ---------------------===//

#include "optiml/Frontend/NvccProfile.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace optiml;

namespace {

std::vector<std::string> flags(const std::vector<NvccIncludeDir> &Dirs) {
  std::vector<std::string> Out;
  for (const NvccIncludeDir &D : Dirs)
    Out.push_back((D.System ? "-isystem " : "-I") + D.Path);
  return Out;
}

} // namespace

TEST(NvccProfileTest, Cuda13AddsCcclAsSystemFolder) {
  // bin/nvcc.profile as CUDA 13.0 ships it.
  const char *Profile = R"(
TOP              = $(_HERE_)/..

CICC_PATH        = $(TOP)/nvvm/bin
INCLUDES        +=  "-I$(TOP)/$(_TARGET_DIR_)/include" $(_SPACE_)
SYSTEM_INCLUDES +=  "-isystem" "$(TOP)/$(_TARGET_DIR_)/include/cccl" $(_SPACE_)

LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/$(_TARGET_DIR_)/lib$(_TARGET_SIZE_)/stubs"
)";
  EXPECT_THAT(flags(NvccProfile::parse(Profile, "/opt/cuda-13/bin",
                                       "targets/x86_64-linux")),
              ::testing::ElementsAre(
                  "-I/opt/cuda-13/targets/x86_64-linux/include",
                  "-isystem /opt/cuda-13/targets/x86_64-linux/include/cccl"));
}

TEST(NvccProfileTest, Cuda12HasOnlyTheIncludeFolder) {
  const char *Profile = R"(
TOP              = $(_HERE_)/..
INCLUDES        +=  "-I$(TOP)/$(_TARGET_DIR_)/include" $(_SPACE_)
)";
  EXPECT_THAT(
      flags(NvccProfile::parse(Profile, "/opt/cuda-12.4/bin",
                               "targets/x86_64-linux")),
      ::testing::ElementsAre("-I/opt/cuda-12.4/targets/x86_64-linux/include"));
}

TEST(NvccProfileTest, AssignmentsAppendAndUnknownNamesVanish) {
  const char *Profile = "A = one\n"
                        "A += -I$(A)/x\n"
                        "INCLUDES = -I/p/$(UNDEFINED)q \"-I/with space\" "
                        "$(_SPACE_)\n"
                        "INCLUDES += -isystem/r -I\n";
  EXPECT_THAT(flags(NvccProfile::parse(Profile, "/b", "")),
              ::testing::ElementsAre("-I/p/q", "-I/with space", "-isystem /r"));
}
