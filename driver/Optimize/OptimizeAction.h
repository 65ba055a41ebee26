//===- OptimizeAction.h - --optimize ---------------------------*- C++ -*-===//
//
// The search of one kernel, or of each kernel of a file in turn, set up
// with the GPUs (or a measuring program), the database, the model and the
// transform library.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_OPTIMIZEACTION_H
#define OPTIML_DRIVER_OPTIMIZEACTION_H

#include "driver/Optimize/OptimizeOptions.h"
#include "driver/Session/Driver.h"

namespace optiml {

class OptimizeAction : public Driver {
public:
  explicit OptimizeAction(const Driver &Session) : Driver(Session) {}

  /// Searches rewrites of one kernel for the fastest verified one (build,
  /// verify and time on the GPU, remembered in the database), writes it to
  /// Options.OutputPath (the original when nothing beats it) and the
  /// trajectory report next to it. A missing GPU is a NoGPU error, before
  /// anything is built.
  llvm::Expected<int> optimize(llvm::StringRef File,
                               const OptimizeOptions &Options);

  /// --optimize of every kernel of \p File that has a spec, each search
  /// starting from the file as the ones before left it, so that
  /// Options.OutputPath ends with every kernel's best version; one report
  /// each (`<prefix>.<kernel>.md`), then a summary line. One kernel (or
  /// Options.Kernel): optimize().
  llvm::Expected<int> optimizeEach(llvm::StringRef File,
                                   const OptimizeOptions &Options);
};

} // namespace optiml

#endif // OPTIML_DRIVER_OPTIMIZEACTION_H
