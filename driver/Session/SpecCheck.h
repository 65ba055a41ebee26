//===- SpecCheck.h - one kernel's spec, checked ---------------*- C++ -*-===//
//
// What --check reports for a kernel and what the listings show as
// warnings: whether it has a spec (its mark, its sidecar entry), how many
// instances, and every error with its position.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_SPECCHECK_H
#define OPTIML_DRIVER_SPECCHECK_H

#include "optiml/IR/KernelInfo.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace optiml {

/// What --check found for one kernel.
struct KernelCheck {
  const KernelInfo *Kernel;
  bool HasSpec = false;
  size_t Instances = 0; ///< Besides the default one.
  std::vector<std::string> Errors;
};

/// Loads \p K's spec (mark or sidecar entry, \p SpecPath when not empty)
/// the way --evaluate would and keeps every error.
KernelCheck checkKernelSpec(const KernelInfo &K, llvm::StringRef File,
                            llvm::StringRef SpecPath);

} // namespace optiml

#endif // OPTIML_DRIVER_SPECCHECK_H
