//===- ProfileGuidedPriors.h - findings to step priors ----------*- C++ -*-===//
//
// The heuristic proposer's last step: the micro-profiler's findings give a
// prior per transform name; each transform's share is split evenly among
// its legal steps (sites and parameters), and transforms no finding names
// keep a small floor so the search can still discover them. A name that no
// registered transform has is a bug (a misspelt prior would otherwise be
// ignored without a word), so the expander checks every finding first.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_PROFILEGUIDEDPRIORS_H
#define OPTIML_SEARCH_PROFILEGUIDEDPRIORS_H

#include "optiml/Profile/Finding.h"
#include "optiml/Profile/ProfileInput.h"
#include "optiml/Search/Expander.h"

#include "llvm/ADT/ArrayRef.h"

namespace optiml {

class TransformRegistry;

/// What the micro-profiler can see of a measured state: the candidate's
/// counters and the device peaks from the runner's result, the resource
/// usage and the SASS mix. The caller adds the launch geometry (the
/// candidate's own, which a block-size step changes), the device limits and
/// the static hints.
ProfileInput profileInput(const Measurement &M);

/// Success when every transform \p Findings suggest is in \p Registry; else
/// an Internal error naming the finding and the unknown transform.
llvm::Error checkPriorNames(const std::vector<Finding> &Findings,
                            const TransformRegistry &Registry);

/// \p Legal with priors summing to one, in the given order. Each carries as
/// motivation the finding that weighs most for its transform ("id: guidance").
std::vector<ScoredAction> assignPriors(llvm::ArrayRef<Step> Legal,
                                       const std::vector<Finding> &Findings,
                                       double Floor = 0.02);

} // namespace optiml

#endif // OPTIML_SEARCH_PROFILEGUIDEDPRIORS_H
