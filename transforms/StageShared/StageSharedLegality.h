//===- StageSharedLegality.h - may a buffer go through smem? ---*- C++ -*-===//
//
// Staging copies the part of a read-only buffer that a block's threads
// read in T consecutive iterations of a loop into shared memory, with every
// thread of the block helping, then runs those T iterations on the copy.
// The copy is read many times (by the threads of a row, or by the copies
// of a coarsened thread), the global loads are made once and coalesced.
//
// It is sound when the block's footprint can be named: each access is
// `P[S * i + U + s * w]` with i the loop variable, U the same for the whole
// block, and w a dense row index of the block (threadIdx.d, or threadIdx.d
// + c * blockDim.d for a coarsening copy c); when the loop runs the same
// tiles in every thread (uniform bounds, at the top of the kernel body or
// under bounds guards that can be split off its work: GuardSplit); and
// when early returns can become guards, since every thread must reach the
// barriers.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_STAGESHARED_STAGESHAREDLEGALITY_H
#define OPTIML_TRANSFORMS_STAGESHARED_STAGESHAREDLEGALITY_H

#include "optiml/Analysis/Legality/GuardTerms.h"
#include "transforms/StageShared/GuardSplit.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/Error.h"

#include <array>
#include <string>
#include <vector>

namespace optiml {

/// How one buffer is staged in one loop: what the rewrite writes.
struct StagePlan {
  const clang::ParmVarDecl *Buffer = nullptr;
  std::string ElemType; ///< "float".
  uint64_t ElemBytes = 0;
  std::array<uint64_t, 3> Block = {1, 1, 1};

  uint64_t Tile = 0; ///< Iterations per tile (T).
  uint64_t Rows = 0; ///< W: the block's rows of the buffer per iteration.
  /// Layout [W][T] (T contiguous in the buffer) when true, else [T][W].
  bool RowMajor = true;
  unsigned Pad = 0; ///< Extra columns against bank conflicts.
  /// The row w as the reading thread computes it: "threadIdx.y" or
  /// "optiml_cy * 16 + threadIdx.y".
  std::string RowText;

  /// The loop of the site: the original loop, or (Join) a tile loop that an
  /// earlier staging made.
  const clang::ForStmt *Loop = nullptr;
  bool Join = false;
  const clang::VarDecl *IV = nullptr; ///< The original loop variable.
  std::string IVType, Lower, Upper;   ///< Upper is exclusive.
  std::string TileVar;                ///< "optiml_i0".
  std::vector<const clang::ArraySubscriptExpr *> Accesses;
  /// The index text of the first access, evaluated in the load loop with
  /// the variables below redeclared.
  std::string IndexText;
  /// Locals the index reads that vary with the thread, with the part that
  /// does not: redeclared for row w as `Base + w`.
  std::vector<std::pair<const clang::VarDecl *, std::string>> RowVars;
  /// Conditions for loading an element (beyond the loop bound), from the
  /// guards around the accesses that speak of the staged rows.
  std::vector<std::string> LoadGuards;

  /// Guards in the loop that only protect values read under the same
  /// guard later, and that the staging makes safe to drop.
  std::vector<const clang::IfStmt *> DeadGuards;
  /// Early returns before the loop, folded into guards.
  ReturnFold Fold;
  /// The guards around the loop, split off its work; Split.Live guards the
  /// loop's body (the early returns' and the guards' conditions).
  GuardSplit Split;

  /// Join only: where the new load goes, and the loop copies to edit.
  const clang::Stmt *FirstBarrier = nullptr;
};

/// How a store whose index strides across threadIdx.x goes through shared
/// memory: each thread writes its value to a tile, and after a barrier
/// stores the value of its transposed partner in the block, so that
/// neighbouring threads store neighbouring elements.
struct ExchangePlan {
  const clang::FunctionDecl *Kernel = nullptr;
  const clang::ParmVarDecl *Buffer = nullptr;
  std::string ElemType;
  uint64_t Side = 0; ///< The square's side.
  /// The coarsening copy loop around the store (y copies of a block whose x
  /// is y times the copies), or null.
  const clang::ForStmt *Jam = nullptr;
  /// The thread's row of the square: "threadIdx.y" or
  /// "threadIdx.y + 8 * optiml_cy".
  std::string RowText;
  const clang::ArraySubscriptExpr *Store = nullptr; ///< The left-hand side.
  const clang::Stmt *Top = nullptr; ///< The top-level statement holding it.
  std::string IndexText;
  /// Locals of the index, redeclared for the partner (threadIdx.x and .y
  /// swapped).
  std::vector<std::pair<const clang::VarDecl *, std::string>> Partner;
  std::vector<std::string> Guards; ///< At the store, early returns' too.
  ReturnFold Fold;
};

/// How the neighbour reads of a stencil go through shared memory: the
/// block's elements and a halo around them are loaded once into a tile,
/// and each read `in[i + dx + dy * nx]` becomes
/// `tile[threadIdx.y + dy - MinY][threadIdx.x + dx - MinX]`.
struct HaloPlan {
  const clang::FunctionDecl *Kernel = nullptr;
  const clang::ParmVarDecl *Buffer = nullptr;
  std::string ElemType;
  std::array<uint64_t, 3> Block = {1, 1, 1};
  /// Whether the tile has rows (a 2-D block); a 1-D tile otherwise.
  bool TwoD = false;
  /// The halo: the smallest and largest offsets in x and in y.
  int64_t MinX = 0, MaxX = 0, MinY = 0, MaxY = 0;
  uint64_t Width = 0, Height = 1; ///< The tile: block plus halo.

  struct Read {
    const clang::ArraySubscriptExpr *Access = nullptr;
    int64_t DX = 0, DY = 0;
  };
  std::vector<Read> Reads;
  /// The first read's index, evaluated by the loading thread with the
  /// locals below redeclared for the tile element it loads.
  std::string IndexText;
  /// Locals the index reads that vary with the thread, in declaration
  /// order, with their text for the element at tile column optiml_c and
  /// row optiml_r: "blockIdx.x * 32 + optiml_c - 1", or the original
  /// initializer for a local computed from them (`y * nx + x`).
  std::vector<std::pair<const clang::VarDecl *, std::string>> Redeclared;
  /// When an element is loaded: the guards every read is under, and the
  /// coordinates' lower bound 0; the rest of the tile is zero-filled.
  std::vector<std::string> LoadGuards;

  /// The top-level statement before which the load and its barrier go.
  const clang::Stmt *Anchor = nullptr;
  ReturnFold Fold;
};

class StageSharedLegality {
public:
  /// The plan for staging \p Buffer in \p Loop of \p Kernel with tiles of
  /// \p Tile iterations, for a kernel launched with \p Block; an Illegal or
  /// NotApplicable LegalityError otherwise.
  static llvm::Expected<StagePlan>
  analyze(const clang::FunctionDecl &Kernel, const clang::ForStmt &Loop,
          const clang::ParmVarDecl &Buffer, uint64_t Tile,
          const std::array<uint64_t, 3> &Block, clang::ASTContext &Ctx);

  /// The plan for exchanging the stores to \p Buffer through shared memory
  /// in a kernel launched with \p Block.
  static llvm::Expected<ExchangePlan>
  analyzeExchange(const clang::FunctionDecl &Kernel,
                  const clang::ParmVarDecl &Buffer,
                  const std::array<uint64_t, 3> &Block, clang::ASTContext &Ctx);

  /// The plan for staging the neighbour reads of the read-only \p Buffer
  /// (a stencil with a halo) in a kernel launched with \p Block.
  static llvm::Expected<HaloPlan>
  analyzeHalo(const clang::FunctionDecl &Kernel,
              const clang::ParmVarDecl &Buffer,
              const std::array<uint64_t, 3> &Block, clang::ASTContext &Ctx);

  /// The element type of \p Buffer as C++ text ("float"); NotApplicable
  /// when it does not point to numbers.
  static llvm::Expected<std::string>
  elementType(const clang::ParmVarDecl &Buffer, clang::ASTContext &Ctx);

  /// Success when a tile of \p TileBytes for \p Buffer fits beside the
  /// kernel's own `__shared__` arrays in 48 KiB (Illegal at \p Where
  /// otherwise), and the buffer has no tile yet (NotApplicable).
  static llvm::Error checkTileFits(const clang::FunctionDecl &Kernel,
                                   const clang::ParmVarDecl &Buffer,
                                   uint64_t TileBytes,
                                   clang::SourceLocation Where,
                                   clang::ASTContext &Ctx);

  /// The tile of a loop an earlier staging made, or 0.
  static uint64_t stagedTile(const clang::ForStmt &Loop,
                             clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_STAGESHARED_STAGESHAREDLEGALITY_H
