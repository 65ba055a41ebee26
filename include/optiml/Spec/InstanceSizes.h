//===- InstanceSizes.h - the sizes of one problem instance ----*- C++ -*-===//
//
// A problem instance overrides some of the spec's sizes; the others keep
// their defaults. Sizes are evaluated in the order they are defined, so a
// size may be written in terms of the ones before it (K = 2 * N).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_INSTANCESIZES_H
#define OPTIML_SPEC_INSTANCESIZES_H

#include "optiml/Spec/KernelSpec.h"

#include "llvm/Support/Error.h"

#include <map>

namespace optiml {

/// Every size of \p Defaults, with \p Instance's overrides applied (none
/// for the default instance). Sizes are integers; an instance that sets a
/// size the spec does not define is an error.
llvm::Expected<std::map<std::string, int64_t>>
instanceSizes(const std::vector<std::pair<std::string, SpecExpr>> &Defaults,
              const InstanceSpec *Instance);

} // namespace optiml

#endif // OPTIML_SPEC_INSTANCESIZES_H
