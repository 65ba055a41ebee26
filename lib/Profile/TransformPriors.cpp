//===- TransformPriors.cpp - what each finding suggests -------------------===//

#include "optiml/Profile/TransformPriors.h"

using namespace optiml;

llvm::ArrayRef<CausePrior> optiml::causePriors() {
  static const CausePrior Table[] = {
#define OPTIML_PRIOR(Cause, Class, ...)                                        \
  {PriorCause::Cause, #Cause, BottleneckKind::Class, {__VA_ARGS__}},
#include "optiml/Profile/TransformPriors.def"
  };
  return Table;
}

const TransformPrior &optiml::priorFor(PriorCause Cause) {
  return causePriors()[static_cast<size_t>(Cause)].Prior;
}
