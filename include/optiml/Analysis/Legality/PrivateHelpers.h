//===- PrivateHelpers.h - device functions only one kernel calls -*- C++
//-*-===//
//
// Kernels often keep their arithmetic in `__device__` helpers (a force
// between two bodies, a Gaussian weight). A rewrite of a kernel's body that
// may also rewrite those helpers must change no other code: a helper that
// another kernel or host code also calls keeps its text.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_PRIVATEHELPERS_H
#define OPTIML_ANALYSIS_LEGALITY_PRIVATEHELPERS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <vector>

namespace optiml {

/// The functions defined in the main file that \p Kernel calls, directly or
/// through one another, and that nothing else references: every reference
/// to each lies in \p Kernel or in another of them. Templates and member
/// functions are left out. In source order.
std::vector<const clang::FunctionDecl *>
privateHelpers(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_PRIVATEHELPERS_H
