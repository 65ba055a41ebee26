//===- NvccFlags.h - nvcc command lines to clang command lines -*- C++ -*-===//
//
// A compile_commands.json written by CMake for CUDA sources holds nvcc
// command lines. Clang parses the same sources, so nvcc-only flags are either
// translated to their clang spelling (architectures, -Xcompiler, -rdc, -x cu)
// or dropped when they only steer nvcc's own back end (ptxas, nvlink,
// fatbin, lambdas and constexpr relaxations that clang allows by default).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_FRONTEND_NVCCFLAGS_H
#define OPTIML_FRONTEND_NVCCFLAGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// Rewrites one command line (argv[0] first, as in a compilation database)
/// so that the clang driver accepts it. Flags clang already understands pass
/// through unchanged; the result names at most one GPU architecture, since
/// analysis needs a single device-side parse.
std::vector<std::string> translateNvccArgs(llvm::ArrayRef<std::string> Args);

/// The architecture, as "sm_NN", named by an nvcc spelling such as
/// "sm_90", "compute_90" or "arch=compute_90,code=[sm_90,compute_90]";
/// nothing for "native", "all" and other names clang has no use for.
std::optional<std::string> nvccArchToSm(llvm::StringRef Spelling);

/// What nvcc needs from a project's compile command (argv[0] first, nvcc
/// or clang spellings) to build its file as Clang parsed it: include paths,
/// made absolute against \p Directory, macro definitions and forced
/// includes, and the C++ standard when it is C++17 or newer (in nvcc's
/// spelling). Everything else (warnings, optimization, architectures,
/// host-compiler flags) stays OptiML's own.
std::vector<std::string> buildFlagsOf(llvm::ArrayRef<std::string> CommandLine,
                                      llvm::StringRef Directory);

} // namespace optiml

#endif // OPTIML_FRONTEND_NVCCFLAGS_H
