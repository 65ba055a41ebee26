//===- TransformMatcher.h - is this edit a known transform? ----*- C++ -*-===//
//
// A free-form edit that produces exactly what a structured transform with
// some parameters produces is that transform: the record names it, so the
// report (and the search's statistics) can tell a model re-deriving unroll
// from a model finding something new. Transforms are planned and their
// edits applied as text, without re-parsing, and compared token by token
// (layout and comments do not count).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_TRANSFORMMATCHER_H
#define OPTIML_LLM_TRANSFORMMATCHER_H

#include "optiml/Rewrite/ParsedSource.h"
#include "optiml/Transform/TransformRegistry.h"

#include <optional>

namespace optiml {

class TransformMatcher {
public:
  explicit TransformMatcher(const TransformRegistry &Registry)
      : Registry(Registry) {}

  /// The first legal step on \p State (each site's defaults, then every
  /// other value of one parameter at a time) whose result has \p Edited's
  /// tokens; its `name(site=..,p=v)` spelling.
  std::optional<std::string> match(ParsedSource &State, llvm::StringRef Kernel,
                                   llvm::StringRef Edited) const;

private:
  const TransformRegistry &Registry;
};

} // namespace optiml

#endif // OPTIML_LLM_TRANSFORMMATCHER_H
