//===- Step.h - one transform applied at one site -------------*- C++ -*-===//
//
// A search state is a trace of steps; replaying it regenerates the source.
// The spelling `name(site=sgemm/for#0,factor=4)` is what --apply takes,
// what --list-sites prints, and what a proposer reads and writes.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_STEP_H
#define OPTIML_TRANSFORM_STEP_H

#include "optiml/Transform/ParamSpec.h"

#include "llvm/Support/Error.h"

#include <string>

namespace optiml {

class TransformRegistry;

struct Step {
  std::string Transform;
  std::string Site;
  ParamValues Params; ///< Those given; the rest take the site's defaults.

  /// `name(site=S,p=v,...)`, parameters in the order they were given.
  std::string str() const;

  /// Parses the spelling above and checks it against \p Registry: the
  /// transform exists, each parameter is declared, given once and inside its
  /// domain, and a site is given. Errors are BadInput, one line each.
  static llvm::Expected<Step> parse(llvm::StringRef Text,
                                    const TransformRegistry &Registry);
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_STEP_H
