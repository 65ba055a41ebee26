//===- CheckActions.h - --check and --list-kernels -------------*- C++ -*-===//
//
// What a user runs to see a file's kernels and their specs through the
// tool's eyes, before anything is built.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_CHECKACTIONS_H
#define OPTIML_DRIVER_CHECKACTIONS_H

#include "driver/Session/Driver.h"

namespace optiml {

class CheckActions : public Driver {
public:
  explicit CheckActions(const Driver &Session) : Driver(Session) {}

  /// Parses \p File and lists its kernels; \p Kernel, when not empty,
  /// selects one. A file without kernels or an unknown kernel is BadInput.
  llvm::Error listKernels(llvm::StringRef File, llvm::StringRef Kernel,
                          OutputFormat Format);

  /// Loads the spec of every kernel of \p File (or \p Kernel) that has
  /// one, its mark or its sidecar entry: every error goes to the error
  /// stream with its position, a verdict per kernel to the output (one
  /// JSON document with --format=json). Returns how many errors there were.
  llvm::Expected<unsigned> check(llvm::StringRef File, llvm::StringRef Kernel,
                                 llvm::StringRef SpecPath, OutputFormat Format);
};

} // namespace optiml

#endif // OPTIML_DRIVER_CHECKACTIONS_H
