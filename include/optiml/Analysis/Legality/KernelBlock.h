//===- KernelBlock.h - the block a kernel is launched with -----*- C++ -*-===//
//
// Rewrites that size shared memory or cooperative loops by the block need
// it as a constant: every launch in the file and the kernel's
// `#pragma optiml kernel ... block(...)` mark must agree on one.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_KERNELBLOCK_H
#define OPTIML_ANALYSIS_LEGALITY_KERNELBLOCK_H

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <array>

namespace optiml {

/// The one constant block \p Kernel runs with, or an Illegal LegalityError
/// saying why it is not known.
llvm::Expected<std::array<uint64_t, 3>>
kernelBlock(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_KERNELBLOCK_H
