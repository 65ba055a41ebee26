//===- PipelineSharedLegality.h - may a tile loop be pipelined? -*- C++ -*-===//
//
// A tile loop whose every iteration copies a tile of global memory into
// `__shared__` arrays, waits at a barrier, computes from them and waits
// again (what stage-shared writes, and the textbook tiled matmul) leaves
// the SM idle while each tile arrives. With the arrays N-buffered, the
// copy of tile t+N-1 is issued with cp.async before tile t is computed,
// and one barrier per iteration serves both purposes: after it, tile t
// has landed in every thread's view, and no thread still reads the buffer
// the next copy overwrites. It keeps the loop's meaning when:
//   * the kernel is compiled for sm_80 or newer (GpuTarget), where
//     cp.async exists;
//   * the loop is canonical (LoopInfo), counts up, declares its variable,
//     and its body is { copy; __syncthreads(); work; __syncthreads(); }
//     with no jump out of it;
//   * the copy phase only copies, the same elements every tile, from
//     read-only buffers, with elements of 4, 8 or 16 bytes aligned to
//     their size (CopyPhase);
//   * the arrays it writes are statically sized `__shared__` arrays of
//     the kernel, declared before the loop and used nowhere outside it;
//     the work only reads their elements, and reads none of the copy
//     phase's locals;
//   * when the work writes global memory, the kernel's buffers are
//     distinct (DistinctBuffers), since the copy of a later tile now reads
//     before that write;
//   * the N copies of the arrays fit the 48 KiB of static shared memory
//     (SharedMemory).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_PIPELINESHARED_PIPELINESHAREDLEGALITY_H
#define OPTIML_TRANSFORMS_PIPELINESHARED_PIPELINESHAREDLEGALITY_H

#include "transforms/PipelineShared/CopyPhase.h"

#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Transform/ParamSpec.h"
#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace optiml {

/// What the rewrite needs, decided once by PipelineSharedLegality.
struct PipelineSharedPlan {
  const clang::FunctionDecl *Kernel = nullptr;
  CanonicalLoop Loop;
  unsigned Stages = 2; ///< Buffers per array, tiles in flight + 1.
  /// The body's statements before its first barrier, and the copies among
  /// them.
  std::vector<const clang::Stmt *> CopyStmts;
  CopyPhase Copy;
  const clang::Stmt *FirstBarrier = nullptr;
  const clang::Stmt *LastBarrier = nullptr;
  /// References to the arrays in the work between the barriers: each gets
  /// the current buffer's index.
  std::vector<const clang::DeclRefExpr *> WorkRefs;
  /// Whether code after the loop (or the loop's next run, inside another
  /// loop) uses shared memory, so a barrier must still end the loop.
  bool BarrierAfter = false;
  /// Whether the loop is a statement of a `{ }` block, so that the
  /// prologue can go on lines of its own before it.
  bool InBlock = true;
};

class PipelineSharedLegality {
public:
  /// The plan at loop site \p S with the parameters \p P (`stages`), or a
  /// LegalityError (Illegal or NotApplicable) with the place and the rule
  /// that refuses it.
  static llvm::Expected<PipelineSharedPlan>
  check(const Site &S, const ParamValues &P, clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_PIPELINESHARED_PIPELINESHAREDLEGALITY_H
