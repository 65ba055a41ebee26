//===- GpuProbe.h - is there a GPU, and which ----------------*- C++ -*-===//
//
// Asked before anything is built for measurement, so that a machine without
// a GPU gets one clear NoGPU error at once.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_GPUPROBE_H
#define OPTIML_EVAL_GPUPROBE_H

#include "llvm/Support/Error.h"

#include <string>

namespace optiml {

struct GpuInfo {
  std::string Name; ///< E.g. "NVIDIA H100 80GB HBM3".
  std::string Arch; ///< E.g. "sm_90".
};

/// The first GPU as nvidia-smi reports it; NoGPU when nvidia-smi is missing,
/// fails or lists none.
llvm::Expected<GpuInfo> probeGpu();

} // namespace optiml

#endif // OPTIML_EVAL_GPUPROBE_H
