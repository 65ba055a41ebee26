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
#include <optional>
#include <utility>
#include <vector>

namespace optiml {

/// The `block(x[, y[, z]])` of a kernel's `#pragma optiml` mark: the block
/// the spec launches it with for verification and timing.
struct MarkBlock {
  std::array<uint64_t, 3> Dims = {1, 1, 1};
  clang::SourceLocation Where; ///< The mark.
};

/// \p Kernel's mark block; nothing when it has no mark or no block clause;
/// an Illegal LegalityError at the mark when the clause is not made of
/// integer literals.
llvm::Expected<std::optional<MarkBlock>>
markBlock(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

/// The one constant block \p Kernel runs with, or an Illegal LegalityError
/// saying why it is not known.
llvm::Expected<std::array<uint64_t, 3>>
kernelBlock(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

/// The blocks \p Kernel is launched with, as far as the file shows: each
/// launch's constant block and the mark's, with where each is written.
struct KnownBlocks {
  std::vector<std::pair<clang::SourceLocation, std::array<uint64_t, 3>>> Blocks;
  /// Some launch's block is not known here: not a constant, a launch
  /// through the kernel's address, or no launch in the file.
  bool Unknown = false;
};
llvm::Expected<KnownBlocks> knownBlocks(const clang::FunctionDecl &Kernel,
                                        clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_KERNELBLOCK_H
