//===- Coarsen.h - F outputs per thread, jammed ----------------*- C++ -*-===//
//
// Thread coarsening with unroll-and-jam (register blocking): each thread
// computes F outputs along x or y, the F copies interleaved statement by
// statement, so that loads the copies share are made once and kept in
// registers, and the grid is divided by F at every launch and in the
// kernel's mark. CoarsenLegality decides; JamPrinter writes the body.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_COARSEN_COARSEN_H
#define OPTIML_TRANSFORMS_COARSEN_COARSEN_H

#include "transforms/Coarsen/CoarsenLegality.h"
#include "optiml/Transform/Transform.h"

namespace optiml {

class Coarsen : public Transform {
public:
  using Transform::Transform;

  /// Along y when the kernel indexes y (rows share the loads of a column),
  /// else along x.
  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;
  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  static llvm::Expected<EditSet> emit(const clang::FunctionDecl &K,
                                      const CoarsenPlan &Plan,
                                      clang::ASTContext &Ctx);
};

/// The factory Transforms.def registers; \p D is Coarsen.json.
std::unique_ptr<Transform> createCoarsen(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_COARSEN_COARSEN_H
