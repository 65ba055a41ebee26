//===- SidecarSpecParser.h - kernel specs from a JSON file ----*- C++ -*-===//
//
// A sidecar holds the specs of one or more kernels when a pragma is not
// wanted (generated code, a file one may not edit) or to override a mark:
//
//   {"kernels": {"saxpy": {
//      "sizes": {"N": "1 << 24"},
//      "args": {"x": {"role": "in", "length": "N",
//                     "dist": {"kind": "uniform", "lo": -1, "hi": 1}},
//               "y": {"role": "inout", "length": "N"},
//               "n": {"role": "scalar", "value": "N"},
//               "a": {"role": "scalar", "value": 2.5}},
//      "grid": ["(N + 255) / 256"], "block": [256], "shmem": 0,
//      "tolerance": {"rtol": 1e-6, "atol": 1e-6, "norm": 1e-5},
//      "seeds": [1, 2], "instances": {"odd": {"N": 100003}}}}}
//
// Expressions are strings (or plain numbers); docs/Spec.md has the rest.
// Like PragmaSpecParser, this checks the form only.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_SIDECARSPECPARSER_H
#define OPTIML_SPEC_SIDECARSPECPARSER_H

#include "optiml/Spec/SpecDraft.h"

#include "llvm/Support/Error.h"

#include <optional>

namespace optiml {

class SidecarSpecParser {
public:
  /// The entry of \p Kernel (by name or qualified name) in the sidecar at
  /// \p Path; none when the file has no such entry.
  static llvm::Expected<std::optional<SpecDraft>>
  load(llvm::StringRef Path, const KernelInfo &Kernel);

  /// As load(), from the text of a file named \p File.
  static llvm::Expected<std::optional<SpecDraft>>
  parse(llvm::StringRef Text, llvm::StringRef File, const KernelInfo &Kernel);
};

} // namespace optiml

#endif // OPTIML_SPEC_SIDECARSPECPARSER_H
