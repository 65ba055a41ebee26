//===- OptimlPlugin.cpp - OptiML inside a clang CUDA compile --------------===//
//
// `clang -fplugin=<prefix>/lib/OptimlPlugin.so` runs OptiML's static
// analyses on the kernels a compile marks with `#pragma optiml` and reports
// them as remarks (KernelRemarks). The plugin runs after clang's own
// action, reads the AST and changes nothing: with or without it, the
// compile produces the same output.
//
//===----------------------------------------------------------------------===//

#include "KernelRemarks.h"
#include "PluginOptions.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace clang;

namespace {

class OptimlAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<optiml::KernelRemarks>(CI, Options);
  }

  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &Args) override {
    // Problems become warnings in the report: returning false would stop
    // the compile.
    Options = optiml::PluginOptions::parse(Args);
    return true;
  }

  ActionType getActionType() override { return AddAfterMainAction; }

private:
  optiml::PluginOptions Options;
};

} // namespace

// Clang finds a plugin's actions only through this registry, filled when
// the library is loaded: the one static registration in OptiML.
static FrontendPluginRegistry::Add<OptimlAction>
    Registration("optiml", "report on kernels marked with #pragma optiml");
