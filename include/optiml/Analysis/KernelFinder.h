//===- KernelFinder.h - inventory of a file's kernels ---------*- C++ -*-===//
//
// Builds the KernelInventory of a parsed translation unit: every __global__
// function defined in the main file (plain, templated, in namespaces, with
// __launch_bounds__), its parameters, its `#pragma optiml` mark, its named
// loops and its launch sites anywhere in the translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_KERNELFINDER_H
#define OPTIML_ANALYSIS_KERNELFINDER_H

#include "optiml/IR/KernelInfo.h"

#include "clang/AST/ASTContext.h"

namespace optiml {

class LaunchSiteFinder;

class KernelFinder {
public:
  static KernelInventory find(clang::ASTContext &Ctx);

private:
  KernelFinder(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  KernelInfo describe(const clang::FunctionDecl &F,
                      const LaunchSiteFinder &Launches) const;
  std::vector<ParamInfo> paramsOf(const clang::FunctionDecl &F) const;
  std::vector<LoopSite> loopsOf(const clang::FunctionDecl &F) const;
  void addTemplateFacts(const clang::FunctionTemplateDecl &T,
                        KernelInfo &K) const;
  void attachMarks(KernelInventory &Inv,
                   const std::vector<const clang::Decl *> &Decls) const;

  clang::ASTContext &Ctx;
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_KERNELFINDER_H
