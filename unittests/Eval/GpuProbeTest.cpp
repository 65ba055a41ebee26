//===- GpuProbeTest.cpp - what the CUDA runtime says of the GPUs ---------===//

#include "optiml/Eval/GpuProbe.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

using namespace optiml;

TEST(GpuProbeTest, DevicesAreReadInTheRuntimesOrder) {
  auto Gpus = llvm::cantFail(parseGpuProbe(
      R"({"devices": [{"ordinal": 0, "name": "NVIDIA H200", "arch": "sm_90",
                       "sms": 132, "memory_bytes": 150754820096,
                       "pci_bus_id": "0000:19:00.0"},
                      {"ordinal": 1, "name": "NVIDIA L4", "arch": "sm_89",
                       "sms": 58, "memory_bytes": 23580639232,
                       "pci_bus_id": ""}]})"));
  ASSERT_EQ(Gpus.size(), 2u);
  EXPECT_EQ(Gpus[0].Name, "NVIDIA H200");
  EXPECT_EQ(Gpus[0].Arch, "sm_90");
  EXPECT_EQ(Gpus[0].Sms, 132);
  EXPECT_EQ(Gpus[0].MemoryBytes, 150754820096u);
  EXPECT_EQ(Gpus[0].PciBusId, "0000:19:00.0");
  EXPECT_EQ(Gpus[1].Ordinal, 1);
  EXPECT_EQ(Gpus[1].Arch, "sm_89");
}

TEST(GpuProbeTest, AnAnswerThatIsNotTheProbesIsAnError) {
  for (const char *Bad : {"", "not json", "{\"devices\": 3}",
                          "{\"devices\": [{\"name\": \"x\"}]}"}) {
    auto Gpus = parseGpuProbe(Bad);
    ASSERT_FALSE(bool(Gpus)) << Bad;
    ErrorSummary E = summarize(Gpus.takeError());
    EXPECT_EQ(E.Kind, ErrorKind::Internal) << Bad;
    EXPECT_NE(E.Message.find("GPU probe"), std::string::npos) << E.Message;
  }
  auto None = parseGpuProbe("{\"devices\": []}");
  ASSERT_FALSE(bool(None));
  EXPECT_EQ(summarize(None.takeError()).Kind, ErrorKind::NoGPU);
}

TEST(GpuProbeTest, NoDriverIsNoGpuAtOnce) {
  if (llvm::sys::fs::exists("/dev/nvidiactl") ||
      llvm::sys::fs::exists("/dev/dxg"))
    GTEST_SKIP() << "this machine has an NVIDIA driver";
  auto Gpus = probeGpus("optiml-unittests");
  ASSERT_FALSE(bool(Gpus));
  ErrorSummary E = summarize(Gpus.takeError());
  EXPECT_EQ(E.Kind, ErrorKind::NoGPU);
  EXPECT_EQ(E.Message, "no CUDA GPU found: no NVIDIA driver on this machine "
                       "(no /dev/nvidiactl); evaluation needs a machine with "
                       "an NVIDIA GPU");
}
