//===- TransformPriors.h - what each finding suggests ----------*- C++ -*-===//
//
// The profiler's findings end in a prior over transforms. The weights are
// the profiler's policy and live in one table (TransformPriors.def), named
// by the cause a finding reports, so every transform name the profiler can
// suggest is listed once: a test holds the table against the registry and
// the descriptors, and the search refuses a name no transform has.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_TRANSFORMPRIORS_H
#define OPTIML_PROFILE_TRANSFORMPRIORS_H

#include "optiml/Profile/Bottleneck.h"

#include "llvm/ADT/ArrayRef.h"

namespace optiml {

/// What a finding reports, one per line of TransformPriors.def.
enum class PriorCause {
#define OPTIML_PRIOR(Cause, Class, ...) Cause,
#include "optiml/Profile/TransformPriors.def"
};

struct CausePrior {
  PriorCause Cause;
  llvm::StringRef Name; ///< The enumerator's name, for messages.
  /// The class a stage-one cause reports; Unknown for stage two.
  BottleneckKind Class;
  TransformPrior Prior;
};

/// Every line of the table, in order.
llvm::ArrayRef<CausePrior> causePriors();

/// The transforms a finding for \p Cause suggests.
const TransformPrior &priorFor(PriorCause Cause);

} // namespace optiml

#endif // OPTIML_PROFILE_TRANSFORMPRIORS_H
