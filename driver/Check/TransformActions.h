//===- TransformActions.h - the transform library, by hand -----*- C++ -*-===//
//
// --list-transforms, --list-sites (where each transform applies, and why
// not elsewhere) and --apply (named moves made in order).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_TRANSFORMACTIONS_H
#define OPTIML_DRIVER_TRANSFORMACTIONS_H

#include "driver/Session/Driver.h"
#include "driver/Session/TransformChoice.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace optiml {

class TransformActions : public Driver {
public:
  explicit TransformActions(const Driver &Session) : Driver(Session) {}

  /// Lists the registered transforms with their parameters and domains.
  llvm::Error listTransforms(OutputFormat Format);

  /// Parses \p File and tells, for each kernel (or \p Kernel), where each
  /// transform applies (with the --apply spelling of its default
  /// parameters) and why not elsewhere; \p Choice limits the transforms.
  llvm::Error listSites(llvm::StringRef File, llvm::StringRef Kernel,
                        OutputFormat Format,
                        const TransformChoice &Choice = TransformChoice());

  /// Applies \p Steps (`name(site=...,p=v)`) in order, each on the re-parsed
  /// result of the previous one, and writes the result to \p OutputPath
  /// (never the input file) or, when empty, to the output stream. A refused
  /// step is an Illegal or NotApplicable error naming its reason. The
  /// lines the steps changed are formatted in \p FormatStyle (as
  /// OptimizeOptions::FormatStyle, for the input's path).
  llvm::Error applySteps(llvm::StringRef File,
                         llvm::ArrayRef<std::string> Steps,
                         llvm::StringRef OutputPath,
                         llvm::StringRef FormatStyle = "file");
};

} // namespace optiml

#endif // OPTIML_DRIVER_TRANSFORMACTIONS_H
