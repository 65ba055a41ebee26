//===- LaunchSiteFinder.h - <<<...>>> launches of kernels -----*- C++ -*-===//
//
// Rewrites that change a kernel's launch geometry must rewrite every launch
// of it, so the finder records each <<<...>>> in the translation unit and
// every other use of a kernel's address, which makes such rewrites illegal.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LAUNCHSITEFINDER_H
#define OPTIML_ANALYSIS_LAUNCHSITEFINDER_H

#include "optiml/IR/KernelInfo.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace optiml {

class LaunchSiteFinder {
public:
  /// Scans the whole translation unit; keys are kernels' qualified names.
  explicit LaunchSiteFinder(clang::ASTContext &Ctx);

  llvm::ArrayRef<LaunchSite> launchesOf(llvm::StringRef QualifiedName) const;
  bool isAddressTaken(llvm::StringRef QualifiedName) const;

private:
  class Visitor;
  llvm::StringMap<std::vector<LaunchSite>> Launches;
  llvm::StringSet<> AddressTaken;
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_LAUNCHSITEFINDER_H
