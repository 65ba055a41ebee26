//===- CudaTestAST.h - CUDA code parsed for a unit test ---------*- C++ -*-===//
//
// The analysis tests parse small kernels the way the tool does (device
// side, the detected CUDA toolchain); one helper does it for all of them.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_UNITTESTS_SUPPORT_CUDATESTAST_H
#define OPTIML_UNITTESTS_SUPPORT_CUDATESTAST_H

#include "optiml/Frontend/CudaToolchain.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

namespace optiml::test {

/// \p Code parsed as `k.cu`; null, with a test failure showing the code,
/// when it does not parse without errors.
inline std::unique_ptr<clang::ASTUnit> parseCuda(llvm::StringRef Code) {
  CudaToolchain TC = CudaToolchain::detect("optiml-unittests", "", "");
  std::vector<std::string> Args =
      TC.defaultsAdjuster()({"clang++", "-x", "cuda", "-std=c++17"}, "k.cu");
  Args.erase(Args.begin());
  auto AST = clang::tooling::buildASTFromCodeWithArgs(Code, Args, "k.cu");
  if (AST && !AST->getDiagnostics().hasErrorOccurred())
    return AST;
  ADD_FAILURE() << "does not parse:\n" << Code.str();
  return nullptr;
}

/// The definition of the function \p Name at namespace scope, or null with
/// a test failure.
inline const clang::FunctionDecl *definitionOf(clang::ASTContext &Ctx,
                                               llvm::StringRef Name) {
  for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D))
      if (F->getName() == Name && F->hasBody())
        return F;
  ADD_FAILURE() << "no definition of " << Name.str();
  return nullptr;
}

} // namespace optiml::test

#endif // OPTIML_UNITTESTS_SUPPORT_CUDATESTAST_H
