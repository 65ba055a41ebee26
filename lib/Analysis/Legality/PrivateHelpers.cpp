//===- PrivateHelpers.cpp - device functions only one kernel calls --------===//

#include "optiml/Analysis/Legality/PrivateHelpers.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/SetVector.h"

using namespace optiml;
using namespace clang;
using namespace clang::ast_matchers;

/// A plain function with a body in the main file: one text to rewrite.
static bool rewritable(const FunctionDecl &F, const ASTContext &Ctx) {
  const FunctionDecl *Def = F.getDefinition();
  return Def && Def == &F && !isa<CXXMethodDecl>(F) &&
         F.getTemplatedKind() == FunctionDecl::TK_NonTemplate &&
         Ctx.getSourceManager().isInMainFile(
             Ctx.getSourceManager().getExpansionLoc(F.getLocation()));
}

/// The functions \p Kernel's body reaches through direct calls that could
/// be rewritten, the kernel itself left out.
static llvm::SetVector<const FunctionDecl *>
reachedFrom(const FunctionDecl &Kernel, ASTContext &Ctx) {
  llvm::SetVector<const FunctionDecl *> Reached;
  std::vector<const FunctionDecl *> Work = {&Kernel};
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    for (const BoundNodes &N :
         match(findAll(callExpr().bind("c")), *F->getBody(), Ctx)) {
      const FunctionDecl *Callee =
          N.getNodeAs<CallExpr>("c")->getDirectCallee();
      if (!Callee || !Callee->getDefinition())
        continue;
      Callee = Callee->getDefinition();
      if (Callee != &Kernel && rewritable(*Callee, Ctx) &&
          Reached.insert(Callee))
        Work.push_back(Callee);
    }
  }
  return Reached;
}

std::vector<const FunctionDecl *>
optiml::privateHelpers(const FunctionDecl &Kernel, ASTContext &Ctx) {
  if (!Kernel.getBody())
    return {};
  llvm::SetVector<const FunctionDecl *> Private = reachedFrom(Kernel, Ctx);
  if (Private.empty())
    return {};
  // Every reference to a candidate, with the function it is written in
  // (for an instantiation, its pattern). Only the main file can name them.
  std::vector<std::pair<const FunctionDecl *, const FunctionDecl *>> Refs;
  auto ToHelper =
      decl(forEachDescendant(declRefExpr(to(functionDecl())).bind("r")));
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (!SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      continue;
    for (const BoundNodes &N : match(ToHelper, *D, Ctx)) {
      const auto *Ref = N.getNodeAs<DeclRefExpr>("r");
      const auto *To = cast<FunctionDecl>(Ref->getDecl())->getDefinition();
      if (!To || !Private.contains(To))
        continue;
      const FunctionDecl *From = enclosingFunction(*Ref, Ctx);
      if (From && From->getTemplateInstantiationPattern())
        From = From->getTemplateInstantiationPattern();
      Refs.push_back({To, From});
    }
  }
  // A helper referenced from outside is shared; the helpers it calls are
  // then reached from outside too.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto [To, From] : Refs) {
      bool Inside =
          From && (From->getCanonicalDecl() == Kernel.getCanonicalDecl() ||
                   Private.contains(From->getDefinition()));
      if (!Inside && Private.remove(To))
        Changed = true;
    }
  }
  std::vector<const FunctionDecl *> Out(Private.begin(), Private.end());
  llvm::sort(Out, [&](const FunctionDecl *A, const FunctionDecl *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  return Out;
}
