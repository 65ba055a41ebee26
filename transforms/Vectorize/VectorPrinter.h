//===- VectorPrinter.h - print a vectorized elementwise body ---*- C++ -*-===//
//
// Writes, for a VectorizePlan:
//   const int optiml_base = (blockIdx.x * blockDim.x + threadIdx.x) * W;
//   if (optiml_base + W - 1 < n && <every buffer aligned to W elements>) {
//     <one vector load per buffer read>
//     <the body once per lane, p[i] as optiml_p.x/.y/.z/.w>
//     <one vector store per buffer written>
//   } else {
//     for (int optiml_l = 0; optiml_l < W; ++optiml_l) {
//       const int i = optiml_base + optiml_l;
//       <the original bounds check and body>
//     }
//   }
//
// or, for a grid-stride loop (VectorizePlan::Loop):
//   if (<every buffer aligned to W elements>) {
//     for (T optiml_v = <start>; optiml_v < n / W; optiml_v += <stride>) {
//       const T optiml_base = optiml_v * W;
//       <loads, lanes, stores as above>
//     }
//     for (T i = n / W * W + (<start>); i < n; i += <stride>) { BODY }
//   } else {
//     <the original loop>
//   }
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_VECTORIZE_VECTORPRINTER_H
#define OPTIML_TRANSFORMS_VECTORIZE_VECTORPRINTER_H

#include "optiml/Rewrite/BodyWriter.h"

#include "transforms/Vectorize/VectorizeLegality.h"

#include <optional>

namespace optiml {

class VectorPrinter {
public:
  VectorPrinter(const VectorizePlan &Plan, clang::ASTContext &Ctx)
      : Plan(Plan), Ctx(Ctx) {}

  /// The new text of \p Body, braces included.
  llvm::Expected<std::string> print(const clang::CompoundStmt &Body);

private:
  llvm::Error printStmts(llvm::ArrayRef<const clang::Stmt *> Stmts,
                         unsigned Depth);
  llvm::Expected<std::string> indexType() const;
  llvm::Expected<std::string> vectorCondition() const;
  std::string boundText() const;
  llvm::Error printGridStride(unsigned Depth);
  llvm::Error printVectorPath(unsigned Depth);
  llvm::Error printLane(unsigned Lane, unsigned Depth);
  llvm::Error printScalarPath(unsigned Depth);

  const VectorizePlan &Plan;
  clang::ASTContext &Ctx;
  std::optional<BodyWriter> W;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_VECTORIZE_VECTORPRINTER_H
