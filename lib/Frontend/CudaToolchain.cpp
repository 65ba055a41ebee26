//===- CudaToolchain.cpp - where CUDA and Clang's headers live -----------===//

#include "optiml/Frontend/CudaToolchain.h"
#include "optiml/Support/Error.h"

#include "clang/Basic/Cuda.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace optiml;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static std::string resourceDirBeside(const char *Argv0) {
  static int Anchor;
  std::string Exe = fs::getMainExecutable(Argv0, &Anchor);
  if (Exe.empty())
    return "";
  llvm::SmallString<256> Dir(path::parent_path(path::parent_path(Exe)));
  path::append(Dir, "lib", "clang", std::to_string(LLVM_VERSION_MAJOR));
  llvm::SmallString<256> Probe(Dir);
  path::append(Probe, "include", "__clang_cuda_runtime_wrapper.h");
  return fs::exists(Probe) ? std::string(Dir) : "";
}

/// nvcc's include folders less the toolkit's `include`, which Clang's CUDA
/// driver adds itself (as an internal system folder, after its wrappers).
static std::vector<NvccIncludeDir> nvccOnlyIncludes(llvm::StringRef CudaPath) {
  llvm::SmallString<256> Main(CudaPath);
  path::append(Main, "include");
  std::vector<NvccIncludeDir> Out;
  for (NvccIncludeDir &D : NvccProfile::includeDirs(CudaPath))
    if (!fs::equivalent(D.Path, Main) && fs::is_directory(D.Path))
      Out.push_back(std::move(D));
  return Out;
}

CudaToolchain CudaToolchain::detect(const char *Argv0,
                                    llvm::StringRef CudaPathOption,
                                    llvm::StringRef GpuArchOption) {
  CudaToolchain TC;
  if (!CudaPathOption.empty())
    TC.CudaPath = CudaPathOption.str();
  else if (auto Env = llvm::sys::Process::GetEnv("CUDA_PATH"))
    TC.CudaPath = *Env;
  else if (fs::is_directory(OPTIML_CUDA_PATH))
    TC.CudaPath = OPTIML_CUDA_PATH;
  else
    TC.CudaPath = "/usr/local/cuda";
  TC.ResourceDir = resourceDirBeside(Argv0);
  if (TC.ResourceDir.empty())
    TC.ResourceDir = OPTIML_CLANG_RESOURCE_DIR;
  TC.GpuArch = GpuArchOption.empty() ? "sm_90" : GpuArchOption.str();
  TC.NvccIncludes = nvccOnlyIncludes(TC.CudaPath);
  return TC;
}

llvm::Error CudaToolchain::check(llvm::StringRef CudaPathOption,
                                 llvm::StringRef GpuArchOption) const {
  llvm::SmallString<256> Header(CudaPath);
  path::append(Header, "include", "cuda_runtime.h");
  if (!fs::exists(Header)) {
    std::string From = !CudaPathOption.empty()
                           ? "--cuda-path=" + CudaPathOption.str()
                           : "the CUDA toolkit at " + CudaPath;
    std::string Fix = !CudaPathOption.empty() ? ""
                      : llvm::sys::Process::GetEnv("CUDA_PATH")
                          ? " (from $CUDA_PATH); set it, or --cuda-path, "
                            "to the toolkit's root"
                          : "; give its root with --cuda-path";
    return makeError(ErrorKind::BadInput, From + ": no CUDA toolkit there (" +
                                              Header.str() +
                                              " does not exist)" + Fix);
  }
  clang::OffloadArch Arch = clang::StringToOffloadArch(GpuArch);
  if (Arch == clang::OffloadArch::UNKNOWN || !clang::IsNVIDIAOffloadArch(Arch))
    return makeError(
        ErrorKind::BadInput,
        (GpuArchOption.empty() ? "the GPU architecture '" + GpuArch + "'"
                               : "--arch=" + GpuArchOption.str()) +
            " is not an NVIDIA GPU architecture that Clang knows (e.g. "
            "sm_80, sm_89, sm_90, sm_90a, sm_100)");
  return llvm::Error::success();
}

static bool hasArgWithPrefix(const clang::tooling::CommandLineArguments &Args,
                             llvm::StringRef Prefix) {
  return llvm::any_of(Args, [&](const std::string &A) {
    return llvm::StringRef(A).starts_with(Prefix);
  });
}

clang::tooling::ArgumentsAdjuster CudaToolchain::defaultsAdjuster() const {
  CudaToolchain TC = *this;
  return
      [TC](const clang::tooling::CommandLineArguments &Args, llvm::StringRef) {
        clang::tooling::CommandLineArguments Out(Args.begin(), Args.end());
        auto Add = [&](std::string A) { Out.insert(Out.begin() + 1, A); };
        if (!hasArgWithPrefix(Args, "--cuda-path"))
          Add("--cuda-path=" + TC.CudaPath);
        if (!hasArgWithPrefix(Args, "-resource-dir"))
          Add("-resource-dir=" + TC.ResourceDir);
        if (!hasArgWithPrefix(Args, "--cuda-gpu-arch") &&
            !hasArgWithPrefix(Args, "--offload-arch"))
          Add("--cuda-gpu-arch=" + TC.GpuArch);
        if (!hasArgWithPrefix(Args, "--cuda-host-only") &&
            !hasArgWithPrefix(Args, "--cuda-device-only"))
          Add("--cuda-device-only");
        // After the command's own flags, so that a -Wall there cannot turn them
        // back on and its own -I folders are searched first, but before a
        // "--" that ends the options (interpolated commands have one).
        std::vector<std::string> Tail;
        for (const NvccIncludeDir &D : TC.NvccIncludes)
          Tail.insert(Tail.end(), {D.System ? "-isystem" : "-I", D.Path});
        Tail.insert(Tail.end(),
                    {"-Wno-unknown-cuda-version", "-Wno-unknown-pragmas"});
        auto End = std::find(Out.begin(), Out.end(), "--");
        Out.insert(End, Tail.begin(), Tail.end());
        return Out;
      };
}

clang::tooling::ArgumentsAdjuster CudaToolchain::compatAdjuster() {
  return [](const clang::tooling::CommandLineArguments &Args, llvm::StringRef) {
    clang::tooling::CommandLineArguments Out(Args.begin(), Args.end());
    auto End = std::find(Out.begin(), Out.end(), "--");
    Out.insert(End, {"-include", CompatHeaderPath.str()});
    return Out;
  };
}

llvm::StringRef CudaToolchain::compatHeader() {
  // The attribute, not the __device__ macro: nothing here may depend on
  // what was included before. Guarded by Clang's version, since a later
  // Clang that defines one of these itself would clash with the
  // declaration.
  return R"(// clang-optiml's parse only: what nvcc's headers declare and Clang's lack.
#if defined(__clang__) && __clang_major__ <= 22
__attribute__((device)) float __tanhf(float);
#endif
)";
}
