//===- SharedMemory.h - the static __shared__ memory of a kernel -*- C++ -*-===//
//
// Transforms that add or grow a __shared__ array (padding, a privatized
// copy) must keep the kernel within what a block may declare statically.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_SHAREDMEMORY_H
#define OPTIML_ANALYSIS_LEGALITY_SHAREDMEMORY_H

#include "clang/AST/ASTContext.h"

#include <cstdint>
#include <vector>

namespace optiml {

/// The static __shared__ memory one block may declare (dynamic shared
/// memory beyond it needs an opt-in at launch).
constexpr uint64_t StaticSharedLimit = 48 * 1024;

/// The __shared__ variables \p Kernel declares or uses, in source order.
std::vector<const clang::VarDecl *>
sharedVariables(const clang::FunctionDecl &Kernel);

/// The bytes of static __shared__ memory \p Kernel takes (unsized `extern`
/// arrays and sizes that depend on a template parameter aside).
uint64_t staticSharedBytes(const clang::FunctionDecl &Kernel,
                           clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_SHAREDMEMORY_H
