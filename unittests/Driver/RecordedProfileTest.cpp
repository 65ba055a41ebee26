//===- RecordedProfileTest.cpp - findings from the database for a prompt -===//

#include "driver/Search/RecordedProfile.h"
#include "optiml/LLM/ProposalPrompt.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

class RecordedProfileTest : public ::testing::Test {
protected:
  RecordedProfileTest()
      : Db(llvm::cantFail(Database::open(":memory:"))),
        Source("saxpy.cu", "__global__ void saxpy() {}\n") {
    Kernel.Name = Kernel.QualifiedName = "saxpy";
  }

  /// Records the H200 run of saxpy as the measurement of \p Hash.
  void record(const std::string &Hash, const std::string &Status) {
    auto Result = llvm::MemoryBuffer::getFile(
        OPTIML_UNITTEST_INPUTS "/runner-result-saxpy-h200.json");
    ASSERT_TRUE(bool(Result));
    int64_t Id = llvm::cantFail(
        Db.kernelId({0, Hash, "saxpy", "{}", "NVIDIA H200", "nvcc"}));
    CandidateRecord C;
    C.Kernel = Id;
    C.SourceHash = Hash;
    C.Status = Status;
    C.Metrics = (*Result)->getBuffer().str();
    ASSERT_TRUE(llvm::cantFail(Db.add(C)));
  }

  Database Db;
  KernelSource Source;
  KernelInfo Kernel;
};

TEST_F(RecordedProfileTest, TheSourcesOwnMeasurementGivesDeviceAndFindings) {
  record(Source.hash().str(), "ok");
  auto P = RecordedProfile::find(Db, Source, Kernel, nullptr, "sm_90");
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  ASSERT_TRUE(P->Device.has_value());
  EXPECT_EQ(P->Device->Name, "NVIDIA H200");
  EXPECT_EQ(P->Device->SMs, 132u);
  EXPECT_DOUBLE_EQ(P->Device->DramBytesPerSecond, 4814304000000.0);
  ASSERT_FALSE(P->Findings.empty());
  EXPECT_EQ(P->Findings.front().Stage, 1u);
  EXPECT_FALSE(P->Bottleneck.empty());

  // What the prompt says about it: the device, then stage one first.
  EXPECT_EQ(ProposalPrompt::device(P->Device),
            "NVIDIA H200, 132 SMs, measured DRAM peak 4814 GB/s, FP32 peak "
            "66.9 TFLOP/s");
  std::string Text = ProposalPrompt::findings(P->Bottleneck, P->Findings);
  EXPECT_EQ(Text.rfind("Bottleneck class: " + P->Bottleneck + "\n- " +
                           P->Findings.front().Id,
                       0),
            0u)
      << Text;
}

TEST_F(RecordedProfileTest, NothingForOtherSourcesOrFailures) {
  record("another-source", "ok");
  record(Source.hash().str(), "verify_failed");
  auto P = RecordedProfile::find(Db, Source, Kernel, nullptr, "sm_90");
  ASSERT_TRUE(bool(P));
  EXPECT_FALSE(P->Device.has_value());
  EXPECT_TRUE(P->Findings.empty());
  EXPECT_EQ(ProposalPrompt::device(P->Device),
            "unknown (the kernel has not been measured yet)");
  EXPECT_EQ(ProposalPrompt::findings("", {}),
            "none yet (no profile of this kernel is recorded)");
}

} // namespace
