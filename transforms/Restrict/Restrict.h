//===- Restrict.h - __restrict__ and const on buffers -----------*- C++ -*-===//
//
// Promises the compiler that the kernel's buffers do not overlap
// (`__restrict__` on every pointer parameter) and that the ones it only
// reads stay unchanged (`const` on their element type), which lets it keep
// values in registers and load through the read-only cache. The promise is
// checked against the launches in the file (RestrictLegality); with none,
// the result rests on the kernel spec and says so.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_RESTRICT_RESTRICT_H
#define OPTIML_TRANSFORMS_RESTRICT_RESTRICT_H

#include "optiml/Transform/Transform.h"

namespace optiml {

class BufferAccess;

class Restrict : public Transform {
public:
  using Transform::Transform;

  llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                               clang::ASTContext &Ctx) const override;

private:
  static llvm::Expected<EditSet> emit(const clang::FunctionDecl &K,
                                      clang::ASTContext &Ctx);
  static llvm::Error qualify(const clang::ParmVarDecl &P, bool AddConst,
                             bool AddRestrict, EditSet &Edits,
                             clang::ASTContext &Ctx);
};

/// The factory Transforms.def registers; \p D is Restrict.json.
std::unique_ptr<Transform> createRestrict(TransformDescriptor D);

} // namespace optiml

#endif // OPTIML_TRANSFORMS_RESTRICT_RESTRICT_H
