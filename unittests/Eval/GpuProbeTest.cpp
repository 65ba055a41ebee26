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

static std::vector<GpuInfo> gpus(std::initializer_list<const char *> Names) {
  std::vector<GpuInfo> Out;
  for (const char *N : Names) {
    GpuInfo G;
    G.Ordinal = int(Out.size());
    G.Name = N;
    G.Arch = "sm_90";
    Out.push_back(G);
  }
  return Out;
}

static std::vector<int> ordinals(const std::vector<GpuInfo> &Gpus) {
  std::vector<int> Out;
  for (const GpuInfo &G : Gpus)
    Out.push_back(G.Ordinal);
  return Out;
}

TEST(GpuProbeTest, GpusNamesTheFirstAllOrAList) {
  auto Four = gpus({"H100", "H100", "H100", "H100"});
  EXPECT_EQ(ordinals(llvm::cantFail(selectGpus("", Four))),
            std::vector<int>({0}));
  EXPECT_EQ(ordinals(llvm::cantFail(selectGpus("all", Four))),
            std::vector<int>({0, 1, 2, 3}));
  EXPECT_EQ(ordinals(llvm::cantFail(selectGpus("3,1", Four))),
            std::vector<int>({3, 1}));
}

TEST(GpuProbeTest, GpusThatCannotBeUsedAreRefusedWithTheReason) {
  auto Two = gpus({"H100", "H100"});
  struct Case {
    const char *Which, *Says;
  } Cases[] = {{"1,x", "'x' is not a GPU number"},
               {"0,,1", "'' is not a GPU number"},
               {"-1", "'-1' is not a GPU number"},
               {"0,0", "GPU 0 is named twice"},
               {"2", "there is no GPU 2; this process sees 0 (H100), 1 (H100)"}};
  for (const Case &C : Cases) {
    auto Chosen = selectGpus(C.Which, Two);
    ASSERT_FALSE(bool(Chosen)) << C.Which;
    ErrorSummary E = summarize(Chosen.takeError());
    EXPECT_EQ(E.Kind, ErrorKind::BadInput) << C.Which;
    EXPECT_NE(E.Message.find(C.Says), std::string::npos) << E.Message;
    EXPECT_NE(E.Message.find(std::string("--gpus=") + C.Which),
              std::string::npos)
        << E.Message;
  }
}

TEST(GpuProbeTest, GpusOfDifferentModelsAreNotMixed) {
  auto Mixed = gpus({"H100", "L4"});
  auto Chosen = selectGpus("all", Mixed);
  ASSERT_FALSE(bool(Chosen));
  EXPECT_NE(summarize(Chosen.takeError()).Message.find("different models"),
            std::string::npos);
  EXPECT_TRUE(bool(selectGpus("1", Mixed)));
}
