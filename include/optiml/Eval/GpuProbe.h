//===- GpuProbe.h - is there a GPU, and which ----------------*- C++ -*-===//
//
// Asked before anything is built for measurement, so that a machine without
// a GPU gets one clear NoGPU error at once. The answer comes from the CUDA
// runtime (runtime/probe/optiml-gpu-probe.cpp, built with nvcc once and
// cached), so it is the one the runner will get: CUDA_VISIBLE_DEVICES is
// honoured, which nvidia-smi ignores.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_GPUPROBE_H
#define OPTIML_EVAL_GPUPROBE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace optiml {

struct GpuInfo {
  int Ordinal = 0;  ///< As the CUDA runtime numbers it.
  std::string Name; ///< E.g. "NVIDIA H100 80GB HBM3".
  std::string Arch; ///< E.g. "sm_90".
  int Sms = 0;      ///< Streaming multiprocessors.
  uint64_t MemoryBytes = 0;
  std::string PciBusId; ///< E.g. "0000:00:06.0"; empty when unknown.
};

/// The GPUs the CUDA runtime lets this process use; NoGPU when there is no
/// NVIDIA driver, the runtime finds none, or nvcc is missing to build the
/// probe. \p Argv0 locates the probe's source like the runner's.
llvm::Expected<std::vector<GpuInfo>> probeGpus(const char *Argv0);

/// The first of probeGpus(): the device the runner measures on.
llvm::Expected<GpuInfo> probeGpu(const char *Argv0);

/// The ordinals --gpus=\p Which names, checked for form only: empty for ""
/// and "all". BadInput for anything but numbers, or a number twice.
llvm::Expected<std::vector<int>> parseGpuList(llvm::StringRef Which);

/// The GPUs of \p Found that --gpus=\p Which names: "" the first, "all"
/// every one, or a comma-separated list of ordinals ("0,2"). BadInput for
/// a malformed list, an ordinal \p Found lacks, a repeated one, or GPUs of
/// different models (their speedups would not compare).
llvm::Expected<std::vector<GpuInfo>>
selectGpus(llvm::StringRef Which, const std::vector<GpuInfo> &Found);

/// The probe program's output ({"devices": [...]}) decoded; BadInput when it
/// is not that.
llvm::Expected<std::vector<GpuInfo>> parseGpuProbe(llvm::StringRef Json);

} // namespace optiml

#endif // OPTIML_EVAL_GPUPROBE_H
