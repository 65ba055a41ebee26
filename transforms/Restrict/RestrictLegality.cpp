//===- RestrictLegality.cpp - may pointer parameters be __restrict__? ----===//

#include "transforms/Restrict/RestrictLegality.h"
#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/DistinctBuffers.h"
#include "optiml/Analysis/Legality/LegalityError.h"

using namespace optiml;
using namespace clang;

/// Whether some pointer parameter still lacks __restrict__, or const on a
/// buffer the kernel only reads.
static bool somethingToQualify(const FunctionDecl &Kernel, ASTContext &Ctx) {
  BufferAccess Access(Kernel, Ctx);
  for (const ParmVarDecl *P : Kernel.parameters()) {
    QualType T = P->getType();
    if (!T->isPointerType())
      continue;
    if (!T.isRestrictQualified())
      return true;
    QualType Pointee = T->getPointeeType();
    if (!Pointee.isConstQualified() && !Pointee->isPointerType() &&
        !Access.mayWrite(*P))
      return true;
  }
  return false;
}

llvm::Error RestrictLegality::check(const FunctionDecl &Kernel,
                                    ASTContext &Ctx) {
  if (!somethingToQualify(Kernel, Ctx))
    return notApplicableAt(Kernel.getLocation(), Ctx,
                           "'" + Kernel.getName() +
                               "' has no pointer parameter left to qualify");
  return checkDistinctBuffers(Kernel, Ctx);
}
