//===- Vectorize.h - W consecutive elements per thread ---------*- C++ -*-===//
//
// Turns an elementwise kernel's scalar loads and stores into float4 /
// double2 / int4 ones: each thread handles W consecutive elements, with a
// vector path when they are all in range and every buffer is aligned, and
// the original code per lane otherwise. The grid is divided by W at every
// launch and in the kernel's mark. VectorizeLegality decides;
// VectorPrinter writes the body.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_VECTORIZE_VECTORIZE_H
#define OPTIML_TRANSFORMS_VECTORIZE_VECTORIZE_H

#include "optiml/Transform/Transform.h"

namespace optiml {

class Vectorize : public Transform {
public:
  Vectorize();

  llvm::StringRef name() const override { return "vectorize"; }
  llvm::StringRef summary() const override {
    return "give each thread W consecutive elements, moved as float4 / "
           "double2 / int4, dividing the grid";
  }
  SiteKind siteKind() const override { return SiteKind::Kernel; }
  llvm::ArrayRef<ParamSpec> params() const override { return Params; }

  /// Width 2 when a buffer holds doubles (there is no double4), else 4.
  ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const override;
  llvm::Error check(const Site &S, const ParamValues &P,
                    clang::ASTContext &Ctx) const override;
  llvm::Expected<EditSet> apply(const Site &S, const ParamValues &P,
                                clang::ASTContext &Ctx) const override;

private:
  std::vector<ParamSpec> Params;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_VECTORIZE_VECTORIZE_H
