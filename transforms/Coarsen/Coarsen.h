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

#include "optiml/Transform/Transform.h"

namespace optiml {

class Coarsen : public Transform {
public:
  Coarsen();

  llvm::StringRef name() const override { return "coarsen"; }
  llvm::StringRef summary() const override {
    return "give each thread F outputs along x or y, jammed statement by "
           "statement, dividing the grid";
  }
  SiteKind siteKind() const override { return SiteKind::Kernel; }
  llvm::ArrayRef<ParamSpec> params() const override { return Params; }

  /// Along y when the kernel indexes y (rows share the loads of a column),
  /// else along x.
  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;
  llvm::Error check(const Site &S, const ParamValues &P,
                    clang::ASTContext &Ctx) const override;
  llvm::Expected<EditSet> apply(const Site &S, const ParamValues &P,
                                clang::ASTContext &Ctx) const override;

private:
  std::vector<ParamSpec> Params;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_COARSEN_COARSEN_H
