//===- RewriteTiming.h - --time-rewrites: moves, timed ---------*- C++ -*-===//

#ifndef OPTIML_DRIVER_REWRITETIMING_H
#define OPTIML_DRIVER_REWRITETIMING_H

#include "driver/Session/Driver.h"

namespace optiml {

class RewriteTiming : public Driver {
public:
  explicit RewriteTiming(const Driver &Session) : Driver(Session) {}

  /// --time-rewrites (hidden): applies every legal move of \p File's kernel
  /// and of its first child the way the search does, and prints each one's
  /// seconds (the step and the re-parse) with their median; no GPU needed.
  llvm::Error timeRewrites(llvm::StringRef File, llvm::StringRef Kernel);
};

} // namespace optiml

#endif // OPTIML_DRIVER_REWRITETIMING_H
