//===- CudaToolchain.h - where CUDA and Clang's headers live --*- C++ -*-===//
//
// Parsing CUDA needs the toolkit's headers and Clang's own resource headers
// (__clang_cuda_runtime_wrapper.h). Both are located once, so the tool works
// from its build folder, from an install, and relocated inside the GPU bundle.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_FRONTEND_CUDATOOLCHAIN_H
#define OPTIML_FRONTEND_CUDATOOLCHAIN_H

#include "optiml/Frontend/NvccProfile.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace optiml {

struct CudaToolchain {
  std::string CudaPath;    ///< Root of the CUDA toolkit.
  std::string ResourceDir; ///< Clang's resource directory.
  std::string GpuArch;     ///< Default device architecture, "sm_NN".
  /// What nvcc adds to the header search beyond the toolkit's `include`,
  /// which Clang adds itself (CUDA 13: `include/cccl`).
  std::vector<NvccIncludeDir> NvccIncludes;

  /// Finds the toolkit (\p CudaPathOption, then $CUDA_PATH, then the one
  /// found at configure time, then /usr/local/cuda) and Clang's resource
  /// directory (beside the executable first: <bin>/../lib/clang/<major>).
  static CudaToolchain detect(const char *Argv0, llvm::StringRef CudaPathOption,
                              llvm::StringRef GpuArchOption);

  /// A BadInput error naming the flag (or variable) at fault when the
  /// toolkit has no CUDA headers or the architecture is not an NVIDIA one
  /// Clang knows: checked before parsing, where either would show only as a
  /// cascade of "unknown type name '__global__'".
  llvm::Error check(llvm::StringRef CudaPathOption,
                    llvm::StringRef GpuArchOption) const;

  /// Adds what a command lacks to parse as CUDA: the toolkit path, the
  /// resource directory, nvcc's own header search, one device architecture,
  /// a device-side parse, and silence for the warnings a newer toolkit or
  /// our pragma cause.
  clang::tooling::ArgumentsAdjuster defaultsAdjuster() const;

  /// Adds `-include CompatHeaderPath`, for a parse that maps that path to
  /// compatHeader() (buildAST does both).
  static clang::tooling::ArgumentsAdjuster compatAdjuster();

  /// Where the parse finds the compatibility header: a virtual file the
  /// parser maps, not one on disk.
  static constexpr llvm::StringLiteral CompatHeaderPath =
      "/optiml-parse/cuda_compat.h";

  /// Declarations CUDA's headers give nvcc and Clang's CUDA wrappers lack
  /// (CUDA 13's __tanhf), so that kernels calling them parse. The tool
  /// never compiles with Clang: nvcc builds every output, without it.
  static llvm::StringRef compatHeader();
};

} // namespace optiml

#endif // OPTIML_FRONTEND_CUDATOOLCHAIN_H
