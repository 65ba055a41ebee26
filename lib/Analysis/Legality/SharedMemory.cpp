//===- SharedMemory.cpp - the static __shared__ memory of a kernel --------===//

#include "optiml/Analysis/Legality/SharedMemory.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"

#include "clang/AST/Attr.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace optiml;
using namespace clang;

std::vector<const VarDecl *>
optiml::sharedVariables(const FunctionDecl &Kernel) {
  std::vector<const VarDecl *> Out;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  auto Add = [&](const Decl *D) {
    if (const auto *V = dyn_cast_or_null<VarDecl>(D);
        V && V->hasAttr<CUDASharedAttr>() && Seen.insert(V).second)
      Out.push_back(V);
  };
  forEachNode(Kernel.getBody(), [&](const Stmt *N) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(N))
      Add(Ref->getDecl());
    else if (const auto *D = dyn_cast<DeclStmt>(N))
      for (const Decl *Sub : D->decls())
        Add(Sub);
  });
  return Out;
}

uint64_t optiml::staticSharedBytes(const FunctionDecl &Kernel,
                                   ASTContext &Ctx) {
  uint64_t Bytes = 0;
  for (const VarDecl *V : sharedVariables(Kernel))
    if (!V->getType()->isDependentType() && !V->getType()->isIncompleteType())
      Bytes += Ctx.getTypeSizeInChars(V->getType()).getQuantity();
  return Bytes;
}
