//===- DeviceGlobalFinder.h - the device tables a kernel reads -*- C++ -*-===//
//
// Real kernels read tables that are not parameters: `__constant__` filters
// and coefficients, `__device__` lookup tables, uploaded by the host with
// cudaMemcpyToSymbol before the launch. A spec names them (`symbol(...)`)
// so the runner can fill them as it fills input buffers; this finds them,
// in the kernel and in every function of the file it calls.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_DEVICEGLOBALFINDER_H
#define OPTIML_ANALYSIS_DEVICEGLOBALFINDER_H

#include "optiml/IR/KernelInfo.h"

#include "clang/AST/ASTContext.h"

namespace optiml {

class DeviceGlobalFinder {
public:
  explicit DeviceGlobalFinder(const clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// The `__constant__` and `__device__` variables at namespace scope that
  /// \p Kernel references, directly or through the functions it calls, in
  /// the order first met.
  std::vector<DeviceGlobal> globalsOf(const clang::FunctionDecl &Kernel) const;

private:
  DeviceGlobal describe(const clang::VarDecl &V) const;

  const clang::ASTContext &Ctx;
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_DEVICEGLOBALFINDER_H
