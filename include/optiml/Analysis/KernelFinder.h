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

#include <map>
#include <optional>

namespace optiml {

class LaunchSiteFinder;

class KernelFinder {
public:
  static KernelInventory find(clang::ASTContext &Ctx);

  /// The `#pragma optiml` mark of kernel \p F, as find() attaches it. The
  /// marks of a file are found once per context (PerContext): transforms
  /// ask for each kernel, and a file with thousands of kernels must not be
  /// scanned thousands of times.
  static std::optional<KernelMark> markOf(const clang::FunctionDecl &F,
                                          clang::ASTContext &Ctx);

private:
  /// The marks by kernel (qualified name), and what did not attach.
  struct MarkTable {
    std::map<std::string, KernelMark> ByKernel;
    std::vector<std::string> Warnings;
  };

  KernelFinder(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  KernelInfo describe(const clang::FunctionDecl &F,
                      const LaunchSiteFinder &Launches) const;
  std::vector<ParamInfo> paramsOf(const clang::FunctionDecl &F) const;
  std::vector<LoopSite> loopsOf(const clang::FunctionDecl &F) const;
  void addTemplateFacts(const clang::FunctionTemplateDecl &T,
                        KernelInfo &K) const;
  MarkTable marks(const std::vector<const clang::Decl *> &Decls,
                  const std::vector<const clang::FunctionDecl *> &Kernels,
                  llvm::StringRef File) const;

  clang::ASTContext &Ctx;
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_KERNELFINDER_H
