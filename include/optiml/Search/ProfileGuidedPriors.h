//===- ProfileGuidedPriors.h - findings to step priors ----------*- C++ -*-===//
//
// The heuristic proposer's last step, kept free of the transform layer so
// it is testable here: the micro-profiler's findings give a prior per
// transform name; each transform's share is split evenly among its legal
// steps (sites and parameters), and transforms no finding names keep a
// small floor so the search can still discover them.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_PROFILEGUIDEDPRIORS_H
#define OPTIML_SEARCH_PROFILEGUIDEDPRIORS_H

#include "optiml/Profile/Finding.h"
#include "optiml/Profile/ProfileInput.h"
#include "optiml/Search/Expander.h"

#include "llvm/ADT/ArrayRef.h"

namespace optiml {

/// What the micro-profiler can see of a measured state: the candidate's
/// counters and the device peaks from the runner's result, the resource
/// usage and the SASS mix. The caller adds the launch geometry (the
/// candidate's own, which a block-size step changes), the device limits and
/// the static hints.
ProfileInput profileInput(const Measurement &M);

/// \p Legal with priors summing to one, in the given order. Each carries as
/// motivation the finding that weighs most for its transform ("id: guidance").
std::vector<ScoredAction> assignPriors(llvm::ArrayRef<Step> Legal,
                                       const std::vector<Finding> &Findings,
                                       double Floor = 0.02);

} // namespace optiml

#endif // OPTIML_SEARCH_PROFILEGUIDEDPRIORS_H
