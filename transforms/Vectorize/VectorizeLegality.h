//===- VectorizeLegality.h - may a thread move W elements at once? -*- C++ -*-//
//
// Vectorizing an elementwise kernel by W gives each thread W consecutive
// elements [W * gid, W * gid + W): one float4 (double2, int4, ...) load per
// buffer it reads, the body computed once per lane, one vector store per
// buffer it writes; a scalar loop over the lanes handles the end of the
// array and unaligned pointers. It is sound when the kernel is exactly
//   int i = blockIdx.x * blockDim.x + threadIdx.x;
//   if (i < n) { BODY }              (or: if (i >= n) return; BODY)
// where BODY touches buffers only as p[i] (so lane l is the element thread
// W * gid + l had) and every launch's grid is ceil(N / B), which is divided
// by W. Where a buffer is read after another one is written, the vector
// path (which loads early) runs only when the two pointers differ: equal
// pointers are the one overlap the original defines (others make its
// threads race), and the scalar path keeps its order.
//
// A grid-stride kernel, whose last statement is
//   for (T i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
//        i += blockDim.x * gridDim.x) { BODY }
// (the stride possibly in a local), keeps its grid: the loop walks vectors
// [W * v, W * v + W) with the same start and stride while whole vectors
// remain, then the original loop takes the last n % W elements from
// W * (n / W); unaligned buffers run the original loop. BODY follows the
// same rules. Where every launch's grid is ceil(N / B) it is divided by W
// too (a thread per element would leave 3 in 4 idle); other grids stay.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_VECTORIZE_VECTORIZELEGALITY_H
#define OPTIML_TRANSFORMS_VECTORIZE_VECTORIZELEGALITY_H

#include "optiml/Analysis/Legality/LaunchShape.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace optiml {

/// A pointer parameter the body accesses as p[i].
struct VectorBuffer {
  const clang::ParmVarDecl *Param = nullptr;
  std::string Element; ///< "float", "double" or "int".
  std::string Vector;  ///< "float4", "double2", ...
  bool Read = false, Written = false;
  /// Loaded before the lanes run: read, or not assigned whole by a
  /// statement of the body itself (lanes not written keep their value).
  bool Load = false;
  /// The last body statement that writes it; stores follow this order so
  /// that two parameters holding one buffer end as the original would.
  unsigned LastWrite = 0;
};

struct VectorizePlan {
  unsigned Width = 4;
  std::vector<LaunchShape> Launches;
  const clang::VarDecl *Index = nullptr; ///< i.
  const clang::Stmt *IndexDecl = nullptr;
  const clang::IfStmt *Guard = nullptr; ///< The bounds check.
  /// A grid-stride kernel's loop (then Guard is null, Bound its bound and
  /// no launch changes), and the loop's stride.
  const clang::ForStmt *Loop = nullptr;
  const clang::Expr *Stride = nullptr;
  /// Whether the launches' grids (and the mark's) are divided by Width:
  /// always for an elementwise kernel; for a grid-stride one, where every
  /// grid is written ceil(N / B).
  bool DivideGrid = true;
  bool EarlyReturn = false;             ///< `if (i >= n) return;` form.
  const clang::Expr *Bound = nullptr;   ///< n.
  /// Statements before the bounds check other than i's declaration.
  std::vector<const clang::Stmt *> Prefix;
  /// The statements the bounds check guards.
  std::vector<const clang::Stmt *> Body;
  std::vector<VectorBuffer> Buffers;                       ///< Parameter order.
  std::vector<const clang::ArraySubscriptExpr *> Accesses; ///< Every p[i].

  /// Pairs (written, read later) of parameters that may hold the same
  /// buffer: the vector path runs only where each pair's pointers differ.
  std::vector<std::pair<const clang::ParmVarDecl *, const clang::ParmVarDecl *>>
      Distinct;

  void addDistinct(const clang::ParmVarDecl *W, const clang::ParmVarDecl *R) {
    for (const auto &[A, B] : Distinct)
      if ((A == W && B == R) || (A == R && B == W))
        return;
    Distinct.push_back({W, R});
  }

  const VectorBuffer *bufferOf(const clang::ParmVarDecl *P) const {
    for (const VectorBuffer &B : Buffers)
      if (B.Param == P)
        return &B;
    return nullptr;
  }
};

class VectorizeLegality {
public:
  /// The plan for vectorizing \p Kernel by \p Width, or an Illegal /
  /// NotApplicable LegalityError with the first reason.
  static llvm::Expected<VectorizePlan>
  analyze(const clang::FunctionDecl &Kernel, unsigned Width,
          clang::ASTContext &Ctx);

  /// "float4" for \p Element "float" and \p Width 4; empty when CUDA has no
  /// such vector type (double4).
  static std::string vectorType(llvm::StringRef Element, unsigned Width);
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_VECTORIZE_VECTORIZELEGALITY_H
