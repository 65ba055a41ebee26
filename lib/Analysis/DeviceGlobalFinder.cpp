//===- DeviceGlobalFinder.cpp - the device tables a kernel reads ---------===//

#include "optiml/Analysis/DeviceGlobalFinder.h"
#include "optiml/Analysis/ElementFields.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

using namespace optiml;
using namespace clang;

namespace {

/// The device variables and the called functions of one body.
class References : public RecursiveASTVisitor<References> {
public:
  explicit References(const SourceManager &SM) : SM(SM) {}

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      if (isDeviceTable(*V))
        Vars.push_back(V->getCanonicalDecl());
    return true;
  }

  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee())
      Callees.push_back(F);
    return true;
  }

  std::vector<const VarDecl *> Vars;
  std::vector<const FunctionDecl *> Callees;

private:
  /// A variable of the program: the toolkit's and Clang's own (threadIdx
  /// and the other built-in variables are `__device__` too) are not
  /// tables a program uploads.
  bool isDeviceTable(const VarDecl &V) const {
    return !SM.isInSystemHeader(SM.getExpansionLoc(V.getLocation())) &&
           V.hasGlobalStorage() && !V.isStaticLocal() &&
           V.getDeclContext()->isFileContext() &&
           (V.hasAttr<CUDAConstantAttr>() || V.hasAttr<CUDADeviceAttr>());
  }

  const SourceManager &SM;
};

} // namespace

std::vector<DeviceGlobal>
DeviceGlobalFinder::globalsOf(const FunctionDecl &Kernel) const {
  std::vector<DeviceGlobal> Out;
  std::set<const VarDecl *> SeenVars;
  std::set<const FunctionDecl *> SeenFunctions{&Kernel};
  std::vector<const FunctionDecl *> Work{&Kernel};
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    const FunctionDecl *Def = nullptr;
    if (!F->hasBody(Def) || !Def)
      continue;
    References R(Ctx.getSourceManager());
    R.TraverseStmt(Def->getBody());
    for (const VarDecl *V : R.Vars)
      if (SeenVars.insert(V).second)
        Out.push_back(describe(*V));
    // Reversed, so that the first callee is walked first.
    for (const FunctionDecl *C : llvm::reverse(R.Callees))
      if (SeenFunctions.insert(C->getCanonicalDecl()).second)
        Work.push_back(C);
  }
  return Out;
}

DeviceGlobal DeviceGlobalFinder::describe(const VarDecl &V) const {
  const VarDecl *Def = V.getDefinition();
  const VarDecl &D = Def ? *Def : V;
  DeviceGlobal G;
  G.QualifiedName = D.getQualifiedNameAsString();
  G.Constant = D.hasAttr<CUDAConstantAttr>();
  G.Initialized = D.hasInit();
  G.Pos = positionOf(D.getLocation(), Ctx.getSourceManager());
  G.Element.Name = D.getNameAsString();
  G.Element.Type = D.getType().getAsString(PrintingPolicy(Ctx.getLangOpts()));
  G.Element.IsPointer = true;
  // A table is its element repeated: `float c[4][8]` is 32 floats.
  QualType T = D.getType();
  G.Count = 1;
  while (const ArrayType *A = Ctx.getAsArrayType(T)) {
    const auto *Sized = dyn_cast<ConstantArrayType>(A);
    G.Count = Sized ? G.Count * Sized->getSize().getZExtValue() : 0;
    T = A->getElementType();
  }
  ElementFields(Ctx).describePointee(T, G.Element);
  return G;
}
