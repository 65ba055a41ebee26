//===- TensorCoresLegality.h - when the rewrite may run ---------*- C++ -*-===//
//
// tensor-cores computes the outputs of a matrix-product kernel (one thread
// per element, MatmulNest) by tiles: each block a Tile x Tile tile of the
// output, each warp 16 x 16 pieces of it with nvcuda::wmma fragments, the
// inputs staged through shared memory by the whole block (rounded to the
// precision on the way, zero past the edges the guards draw), the sums
// handed to the kernel's own epilogue element by element. It is sound when:
//   * the kernel has that shape (MatmulNest: one sum over k of a product
//     of a load that follows y and a load that follows x, guards that bound
//     both coordinates, one output element per thread, nothing shared);
//   * the inputs are float (rounded to the precision), or already __half
//     for precision=half or __nv_bfloat16 for precision=bf16;
//   * the target has the instructions: sm_80 for tf32 and bf16, sm_70 for
//     half (TargetArch);
//   * the spec's tolerance, as the kernel's mark gives it (MarkTolerance),
//     admits rounding float inputs to the precision: tf32 and half need
//     rtol >= 5e-3 and norm >= 2e-3, bf16 rtol >= 5e-2 and norm >= 1.5e-2
//     (tf32x3, which splits each float into two tf32 parts, keeps float
//     accuracy and needs no more than the search's rtol >= 1e-5);
//   * every launch is in this file with a constant block, 1 in z, and a
//     grid written as ceil(N / B) in x and y, or the mark gives the launch
//     (LaunchShape), and no __launch_bounds__ caps the block below the
//     rewrite's;
//   * the kernel does not spell the names the rewrite declares.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_TENSORCORES_TENSORCORESLEGALITY_H
#define OPTIML_TRANSFORMS_TENSORCORES_TENSORCORESLEGALITY_H

#include "transforms/TensorCores/MatmulNest.h"
#include "transforms/TensorCores/WmmaPrecision.h"

#include "optiml/Analysis/Legality/LaunchShape.h"
#include "optiml/Transform/ParamSpec.h"
#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

namespace optiml {

/// What the rewrite needs, decided once by TensorCoresLegality.
struct TensorCoresPlan {
  MatmulNest Nest;
  const WmmaPrecision *Precision = nullptr;
  unsigned Tile = 64;  ///< The block's tile of outputs: Tile x Tile.
  unsigned WarpsY = 2; ///< Warps along the tile's rows ...
  unsigned WarpsX = 2; ///< ... and columns.
  unsigned KTile = 32; ///< Values of k staged in shared memory at a time.
  /// The launches in this file, rewritten to the new block and grid.
  std::vector<LaunchShape> Launches;

  unsigned warps() const { return WarpsY * WarpsX; }
  unsigned fragsY() const { return Tile / WarpsY / 16; }
  unsigned fragsX() const { return Tile / WarpsX / 16; }
  Dim3 block() const { return {32, warps(), 1}; }
};

class TensorCoresLegality {
public:
  /// The plan at \p S, or a LegalityError (Illegal or NotApplicable)
  /// with the place and the rule that refuses it.
  static llvm::Expected<TensorCoresPlan>
  check(const Site &S, const ParamValues &P, clang::ASTContext &Ctx);

  /// The precision to suggest at \p Nest: the inputs' own type when they
  /// are __half or __nv_bfloat16; for float, tf32 when the mark's
  /// tolerance admits it, else tf32x3.
  static llvm::StringRef suggestedPrecision(const MatmulNest &Nest,
                                            clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_TENSORCORES_TENSORCORESLEGALITY_H
