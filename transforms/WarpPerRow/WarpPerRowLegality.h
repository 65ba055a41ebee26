//===- WarpPerRowLegality.h - when a row's sum may be split -----*- C++ -*-===//
//
// A kernel that gives each thread a row (`row = blockIdx.x * blockDim.x +
// threadIdx.x`) and sums along it reads memory a row apart across a warp.
// Giving each row to a group of lanes instead (lanes stride the loop,
// shuffles add the partial sums) keeps the launch as it is: each group
// takes the rows of its lanes one after the other. It is legal when:
//
// - the kernel is 1-D and uses the thread geometry only through one index
//   variable declared in the body's outermost block (ThreadGeometry), with
//   no barrier, shuffle or __shared__ memory;
// - the site is a canonical for-loop with step 1 or -1 whose IV is declared
//   in its header (LoopInfo), inside { } blocks and ifs only, after the
//   index variable;
// - its body only reduces into local scalars it reads nowhere else, by sums
//   (`s += e`, `s -= e`, `s = s + e`, `++s`) or a maximum or minimum (`m =
//   fmaxf(m, e)`, `max`, `fminf`, `min`), and writes nothing but its own
//   locals: no store, no call with side effects, no return or break;
// - the statements before the loop (and the conditions of the ifs around
//   it) write no memory: every lane runs them. After the loop every lane
//   holds the same sums: statements that write memory run in lane 0 only,
//   so a declaration there may have no side effect.
// - Loops after the site in its block, before any statement for lane 0, are
//   split too when they are summing loops under the same rules, or element
//   loops: each iteration stores only to elements whose index moves with
//   the loop's counter and reads the stored buffers only at those elements,
//   the kernel's buffers are distinct (DistinctBuffers), and nothing after
//   the loop refers to a buffer it stores to (lanes do not see each other's
//   stores without a barrier). Others run in lane 0 as before.
//
// With grid=spread the grid grows by the group's size instead, so that each
// group takes one row (as many groups as the kernel had threads, and as
// many warps in flight): every launch must be in reach with its grid written
// ceil(N / B) and its block a multiple of the group (spreadLaunches). A
// group of more than 32 lanes is a whole block (its warps meet at barriers),
// so its launches must change: their block becomes the group and their grid
// a block per row; the rows' control flow is the same for every thread of
// the block, since only the row, which they share, tells threads apart.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_WARPPERROW_WARPPERROWLEGALITY_H
#define OPTIML_TRANSFORMS_WARPPERROW_WARPPERROWLEGALITY_H

#include "optiml/Analysis/Legality/LaunchShape.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace optiml {

/// A group of more lanes than a warp is a whole block: its warps combine
/// their results through shared memory between barriers, which every
/// thread of the block must reach, so the block is exactly the group.
constexpr unsigned WarpLanes = 32;
inline bool isBlockGroup(unsigned Lanes) { return Lanes > WarpLanes; }

/// A local that the row's loop reduces into, and how two lanes' partial
/// results combine: added, or through a two-argument function that picks
/// one of them (fmaxf, min, ...).
struct RowReduction {
  const clang::VarDecl *Var = nullptr;
  std::string Combine; ///< Empty for a sum; else the callee as written.

  bool isSum() const { return Combine.empty(); }
};

/// What the rewrite needs, decided once by WarpPerRowLegality.
struct WarpPerRowPlan {
  CanonicalLoop Loop;
  /// `int row = <global index>;`, a statement of the kernel's body.
  const clang::DeclStmt *RowDecl = nullptr;
  const clang::VarDecl *Row = nullptr;
  /// The body's last statement: the rows' loop ends after it.
  const clang::Stmt *Last = nullptr;
  /// The local scalars the loop reduces into.
  std::vector<RowReduction> Reductions;
  /// A statement after the loop that writes memory, which only lane 0
  /// runs; Braced when it is
  /// an if's then-branch, whose else the added `if` must not capture.
  struct Guarded {
    const clang::Stmt *S;
    bool Braced;
  };
  std::vector<Guarded> LaneZero;
  /// The loops after the site in its block, up to the first statement for
  /// lane 0, that the lanes stride too: a row's further sums (a variance
  /// after its mean), or loops that write the row's elements, a different
  /// one each iteration (a normalization after its sums).
  struct Follower {
    CanonicalLoop Loop;
    std::vector<RowReduction> Reductions; ///< None: an element loop.
    /// The loop's statement: the loop, or the pragma around it.
    const clang::Stmt *Whole = nullptr;
  };
  std::vector<Follower> Followers;
  /// Returns from the kernel, which become `continue` (the next row).
  std::vector<const clang::ReturnStmt *> Returns;
};

class WarpPerRowLegality {
public:
  /// The plan for the for-loop \p Loop of \p Kernel, or a LegalityError
  /// (Illegal or NotApplicable) with the place and the rule that refuses it.
  static llvm::Expected<WarpPerRowPlan> check(const clang::FunctionDecl &Kernel,
                                              const clang::Stmt &Loop,
                                              clang::ASTContext &Ctx);

  /// Whether a read of a buffer in \p Loop is at neighbouring elements for
  /// neighbouring threads (threadIdx.x) and no read that differs between
  /// threads is at neighbouring elements for neighbouring iterations: a
  /// thread per column walking down a row-major matrix.
  /// Lanes that split such a loop read rows apart, so only a few lanes to
  /// a row keep each warp's reads in whole 32-byte sectors.
  static bool readsAcrossThreads(const clang::FunctionDecl &Kernel,
                                 const CanonicalLoop &Loop,
                                 clang::ASTContext &Ctx);

  /// Success when groups of \p Lanes may take the rows with every launch
  /// of \p Kernel as it is (grid=keep): not for a block group, whose
  /// launches must give it its block.
  static llvm::Error keepLaunches(const clang::FunctionDecl &Kernel,
                                  unsigned Lanes, clang::ASTContext &Ctx);

  /// The launches of \p Kernel whose grid may grow \p Lanes-fold (none
  /// when the mark alone gives its launch), or a LegalityError saying why
  /// not. For a block group (isBlockGroup), the launches whose block may
  /// become \p Lanes threads and whose grid a block per row.
  static llvm::Expected<std::vector<LaunchShape>>
  spreadLaunches(const clang::FunctionDecl &Kernel, unsigned Lanes,
                 clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_WARPPERROW_WARPPERROWLEGALITY_H
