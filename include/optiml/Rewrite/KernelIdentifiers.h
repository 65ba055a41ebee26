//===- KernelIdentifiers.h - names a kernel already spells ------*- C++ -*-===//
//
// Generated names (`optiml_i_t`, `optiml_inv0`) must not clash with any
// identifier of the kernel, including ones only macros expand to; names
// mentioned in comments do not count.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_KERNELIDENTIFIERS_H
#define OPTIML_REWRITE_KERNELIDENTIFIERS_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringSet.h"

namespace optiml {

/// Every identifier token written in \p Kernel's definition.
llvm::StringSet<> identifiersOf(const clang::FunctionDecl &Kernel,
                                clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_REWRITE_KERNELIDENTIFIERS_H
