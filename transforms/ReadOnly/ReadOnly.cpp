//===- ReadOnly.cpp - loads of a read-only buffer through __ldg -----------===//

#include "ReadOnly.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

std::unique_ptr<Transform> optiml::createReadOnly(TransformDescriptor D) {
  return std::make_unique<ReadOnly>(std::move(D));
}

llvm::Expected<Rewrite> ReadOnly::plan(const Site &S, const ParamValues &,
                                       ASTContext &Ctx) const {
  auto Plan = ReadOnlyLegality::check(S, Ctx);
  if (!Plan)
    return Plan.takeError();
  return Rewrite(
      [S, Plan = std::move(*Plan), &Ctx] { return emit(S, Plan, Ctx); });
}

/// `x[i]` -> `__ldg(&x[i])`: two insertions, so that a load inside
/// another's index (`x[x[i]]`) is wrapped too without overlapping edits.
llvm::Expected<EditSet> ReadOnly::emit(const Site &S, const ReadOnlyPlan &Plan,
                                       ASTContext &Ctx) {
  EditSet Edits;
  for (const Expr *Load : Plan.Loads) {
    if (llvm::Error E = Edits.add(
            *Load, insertBefore(node(EditSet::Root.str()), cat("__ldg(&")),
            Ctx))
      return E;
    if (llvm::Error E = Edits.add(
            *Load, insertAfter(node(EditSet::Root.str()), cat(")")), Ctx))
      return E;
  }
  if (Plan.RestsOnSpec)
    Edits.addNote("'" + S.Kernel->getNameAsString() +
                  "' is not launched in this file: the read-only path "
                  "relies on the kernel spec's buffers being distinct");
  return Edits;
}
