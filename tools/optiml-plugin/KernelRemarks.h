//===- KernelRemarks.h - the plugin's report on a compile ----*- C++ -*-===//
//
// Runs after clang's own consumers have seen the translation unit, reads
// the AST they leave (never changing it), and reports on each kernel
// marked with `#pragma optiml`: the static findings about its accesses,
// the transforms that apply where (the ones --list-sites calls legal), and
// the cached result when a search has found one. Everything is a remark or
// a warning at file:line:col, so it shows where the build's diagnostics
// show, and nothing can fail the compile.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PLUGIN_KERNELREMARKS_H
#define OPTIML_PLUGIN_KERNELREMARKS_H

#include "PluginOptions.h"

#include "optiml/IR/KernelInfo.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"

#include <vector>

namespace clang {
class CompilerInstance;
} // namespace clang

namespace optiml {

class CachedResults;
class SiteIndex;
class TransformRegistry;

class KernelRemarks : public clang::ASTConsumer {
public:
  KernelRemarks(clang::CompilerInstance &CI, PluginOptions Options);

  bool HandleTopLevelDecl(clang::DeclGroupRef Group) override;
  void HandleTranslationUnit(clang::ASTContext &Ctx) override;

private:
  void reportKernel(const KernelInfo &K, clang::ASTContext &Ctx,
                    const SiteIndex &Index, const TransformRegistry &Registry,
                    CachedResults &Cache);
  /// Warns about each error of \p K's spec; true when it has none.
  bool reportSpec(const KernelInfo &K, clang::SourceLocation At);
  std::string cachedResult(const KernelInfo &K, clang::ASTContext &Ctx,
                           CachedResults &Cache);

  void remark(clang::SourceLocation At, const std::string &Text);
  /// A warning, or a remark where -Werror would make it an error.
  void warning(clang::SourceLocation At, const std::string &Text);
  /// A warning from one of OptiML's "file:line:col: error: ..." lines,
  /// at that place when this compile has it, else at \p Else.
  void warningFrom(llvm::StringRef Line, clang::SourceLocation Else);

  clang::CompilerInstance &CI;
  PluginOptions Options;
  std::string File;
  std::string Arch; ///< "sm_90" in a device run; else the arch= option.
  unsigned RemarkId, WarningId;
  /// The main file's top-level declarations: what OptiML's analyses walk.
  std::vector<clang::Decl *> MainFileDecls;
};

} // namespace optiml

#endif // OPTIML_PLUGIN_KERNELREMARKS_H
