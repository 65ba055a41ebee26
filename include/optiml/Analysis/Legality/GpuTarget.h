//===- GpuTarget.h - the GPU a kernel is compiled for -----------*- C++ -*-===//
//
// Some rewrites use instructions that only newer GPUs have (cp.async needs
// sm_80). The kernel is parsed as device code for one architecture
// (`--arch`, sm_90 by default), and the output is built for the same one,
// so that architecture is the one a rewrite may rely on.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_GPUTARGET_H
#define OPTIML_ANALYSIS_LEGALITY_GPUTARGET_H

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>

namespace optiml {

/// The compute capability the device side of \p Ctx is parsed for, as a
/// number (sm_80 -> 80, sm_90a -> 90); nothing when \p Ctx is not an NVPTX
/// device parse or names no sm_NN architecture.
std::optional<unsigned> targetSmVersion(const clang::ASTContext &Ctx);

/// "sm_90", or "an unknown architecture", for refusals.
std::string targetArchName(const clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_GPUTARGET_H
