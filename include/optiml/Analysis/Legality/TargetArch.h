//===- TargetArch.h - the GPU a kernel is parsed for ------------*- C++ -*-===//
//
// Some rewrites use instructions that only newer GPUs have (tensor cores
// with tf32 or bf16 inputs need sm_80). The parse is made for one device
// architecture (--arch, sm_90 by default), which is the one the candidate
// is built for, so its target says what the rewrite may use.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_TARGETARCH_H
#define OPTIML_ANALYSIS_LEGALITY_TARGETARCH_H

#include "clang/AST/ASTContext.h"

#include <optional>

namespace optiml {

/// The compute capability of the device side of \p Ctx as a number (sm_90
/// and sm_90a give 90); nothing when no NVPTX target is part of the parse.
std::optional<unsigned> targetSmVersion(const clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_TARGETARCH_H
