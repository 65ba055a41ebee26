//===- GpuProbe.cpp - is there a GPU, and which --------------------------===//

#include "optiml/Eval/GpuProbe.h"
#include "optiml/Eval/Builder.h"
#include "optiml/Eval/Runner.h"
#include "optiml/Support/CacheDir.h"
#include "optiml/Support/CacheEntryLock.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Subprocess.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

using namespace optiml;
namespace fs = llvm::sys::fs;

/// The probe program's exit code when the runtime finds no GPU.
static constexpr int ProbeNoGPU = 4;

/// Builds take a second or two; these only guard against a hang.
static constexpr unsigned ProbeBuildSeconds = 300;
static constexpr unsigned ProbeRunSeconds = 120;

static llvm::Error noGpu(const llvm::Twine &Why) {
  return makeError(ErrorKind::NoGPU, "no CUDA GPU found: " + Why);
}

/// Without the driver's device node the CUDA runtime can only fail, and
/// says so misleadingly ("driver version is insufficient"): answer at once.
/// WSL 2 reaches the GPU through /dev/dxg instead.
static bool driverPresent() {
  return fs::exists("/dev/nvidiactl") || fs::exists("/dev/dxg");
}

/// The probe, built from \p Source with \p Nvcc unless the cache has it.
static llvm::Expected<std::string> buildProbe(llvm::StringRef Source,
                                              llvm::StringRef Nvcc) {
  auto Text = llvm::MemoryBuffer::getFile(Source);
  if (!Text)
    return makeError(ErrorKind::BadInput,
                     "cannot read the GPU probe's source " + Source + ": " +
                         Text.getError().message());
  llvm::SHA256 Hash;
  Hash.update((*Text)->getBuffer());
  Hash.update(Nvcc);
  auto Root =
      cacheDir("probe/" + llvm::toHex(Hash.final(), true).substr(0, 24));
  if (!Root)
    return Root.takeError();
  std::string Exe = *Root + "/optiml-gpu-probe";
  auto Lock = CacheEntryLock::acquire(*Root);
  if (!Lock)
    return Lock.takeError();
  if (fs::can_execute(Exe))
    return Exe;
  std::string Tmp = Exe + ".tmp";
  auto Build = runSubprocess(Nvcc, {Nvcc.str(), "-O1", "-o", Tmp, Source.str()},
                             ProbeBuildSeconds);
  if (!Build)
    return Build.takeError();
  if (!Build->succeeded())
    return makeError(ErrorKind::Internal,
                     "building the GPU probe failed: " +
                         llvm::StringRef(Build->Output).trim().take_back(400));
  if (std::error_code EC = fs::rename(Tmp, Exe))
    return makeError(ErrorKind::Internal,
                     "cannot install the GPU probe: " + EC.message());
  return Exe;
}

llvm::Expected<std::vector<GpuInfo>>
optiml::parseGpuProbe(llvm::StringRef Text) {
  auto Bad = [&](const llvm::Twine &Why) {
    return makeError(ErrorKind::Internal,
                     "the GPU probe's answer is not understood (" + Why +
                         "): " + Text.trim().take_front(200));
  };
  nlohmann::json J = nlohmann::json::parse(Text.begin(), Text.end(), nullptr,
                                           /*allow_exceptions=*/false);
  if (!J.is_object() || !J.contains("devices") || !J["devices"].is_array())
    return Bad("expected {\"devices\": [...]}");
  std::vector<GpuInfo> Gpus;
  for (const nlohmann::json &D : J["devices"]) {
    if (!D.is_object() || !D.value("name", nlohmann::json()).is_string() ||
        !D.value("arch", nlohmann::json()).is_string())
      return Bad("a device without a name or arch");
    GpuInfo G;
    G.Ordinal = D.value("ordinal", 0);
    G.Name = D["name"].get<std::string>();
    G.Arch = D["arch"].get<std::string>();
    G.Sms = D.value("sms", 0);
    G.MemoryBytes = D.value("memory_bytes", uint64_t(0));
    G.PciBusId = D.value("pci_bus_id", std::string());
    Gpus.push_back(std::move(G));
  }
  if (Gpus.empty())
    return noGpu("the GPU probe lists no device");
  return Gpus;
}

llvm::Expected<std::vector<GpuInfo>> optiml::probeGpus(const char *Argv0) {
  if (!driverPresent())
    return noGpu("no NVIDIA driver on this machine (no /dev/nvidiactl); "
                 "evaluation needs a machine with an NVIDIA GPU");
  std::string Sources = Runner::findSources(Argv0);
  if (Sources.empty())
    return makeError(ErrorKind::BadInput,
                     "runtime sources not found: set OPTIML_RUNTIME_DIR to the "
                     "runtime/ folder of OptiML");
  std::string Nvcc = findNvcc();
  if (Nvcc.empty())
    return makeError(ErrorKind::BadInput,
                     "nvcc not found: set CUDA_PATH or put nvcc on PATH");
  auto Exe = buildProbe(Sources + "/probe/optiml-gpu-probe.cpp", Nvcc);
  if (!Exe)
    return Exe.takeError();
  auto Run = runSubprocess(*Exe, {*Exe}, ProbeRunSeconds);
  if (!Run)
    return Run.takeError();
  llvm::StringRef Said = llvm::StringRef(Run->Output).trim();
  if (!Run->TimedOut && !Run->Signaled && Run->ExitCode == ProbeNoGPU)
    return makeError(ErrorKind::NoGPU, Said.take_back(300));
  if (!Run->succeeded()) {
    std::string How = Run->Reason.empty()
                          ? "exit " + std::to_string(Run->ExitCode)
                          : Run->Reason;
    return noGpu("the GPU probe failed (" + How + "): " + Said.take_back(300));
  }
  return parseGpuProbe(Run->Output);
}

llvm::Expected<GpuInfo> optiml::probeGpu(const char *Argv0) {
  auto Gpus = probeGpus(Argv0);
  if (!Gpus)
    return Gpus.takeError();
  return Gpus->front();
}

/// "0 (NVIDIA H100 80GB HBM3), 1 (...)": what --gpus may name.
static std::string describe(const std::vector<GpuInfo> &Gpus) {
  std::vector<std::string> Parts;
  for (const GpuInfo &G : Gpus)
    Parts.push_back(std::to_string(G.Ordinal) + " (" + G.Name + ")");
  return llvm::join(Parts, ", ");
}

static llvm::Error badGpus(llvm::StringRef Which, const llvm::Twine &Why) {
  return makeError(ErrorKind::BadInput, "--gpus=" + Which + ": " + Why);
}

llvm::Expected<std::vector<int>> optiml::parseGpuList(llvm::StringRef Which) {
  std::vector<int> Ordinals;
  if (Which.empty() || Which == "all")
    return Ordinals;
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Which.split(Items, ',');
  for (llvm::StringRef Item : Items) {
    unsigned Ordinal;
    if (Item.trim().getAsInteger(10, Ordinal) || Ordinal > 1023)
      return badGpus(Which, "'" + Item +
                                "' is not a GPU number; expected 'all' or "
                                "numbers such as 0,1");
    if (llvm::is_contained(Ordinals, int(Ordinal)))
      return badGpus(Which, "GPU " + llvm::Twine(Ordinal) + " is named twice");
    Ordinals.push_back(int(Ordinal));
  }
  return Ordinals;
}

llvm::Expected<std::vector<GpuInfo>>
optiml::selectGpus(llvm::StringRef Which, const std::vector<GpuInfo> &Found) {
  auto Ordinals = parseGpuList(Which);
  if (!Ordinals)
    return Ordinals.takeError();
  if (Found.empty())
    return makeError(ErrorKind::NoGPU, "no CUDA GPU found");
  std::vector<GpuInfo> Chosen;
  if (Which.empty())
    Chosen.push_back(Found.front());
  else if (Ordinals->empty())
    Chosen = Found;
  for (int Ordinal : *Ordinals) {
    auto It = llvm::find_if(
        Found, [&](const GpuInfo &G) { return G.Ordinal == Ordinal; });
    if (It == Found.end())
      return badGpus(Which, "there is no GPU " + llvm::Twine(Ordinal) +
                                "; this process sees " + describe(Found));
    Chosen.push_back(*It);
  }
  for (const GpuInfo &G : Chosen)
    if (G.Name != Chosen.front().Name || G.Arch != Chosen.front().Arch)
      return badGpus(Which, "the GPUs are of different models (" +
                                describe(Chosen) +
                                "): speedups measured on them would not "
                                "compare; name GPUs of one model");
  return Chosen;
}
