//===- Trace.h - a search state as the steps that produce it ----*- C++ -*-===//
//
// A trace is how a state is shown and stored (`a(site=..); b(site=..)`);
// the source hash it produces is how the state is identified, so two
// traces reaching the same source are one state.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_TRACE_H
#define OPTIML_SEARCH_TRACE_H

#include "optiml/Transform/Step.h"

#include <vector>

namespace optiml {

using Trace = std::vector<Step>;

/// Steps joined by "; "; the empty trace (the original) is "".
std::string toString(const Trace &T);

/// Parses one step's spelling without a registry: the search and the
/// database only carry steps, they do not check them against transforms.
llvm::Expected<Step> parseStepSpelling(llvm::StringRef Text);

/// The inverse of toString().
llvm::Expected<Trace> parseTrace(llvm::StringRef Text);

} // namespace optiml

#endif // OPTIML_SEARCH_TRACE_H
