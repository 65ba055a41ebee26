//===- TransformDescriptor.h - what a transform is ------------*- C++ -*-===//
//
// Everything about a transform that does not need a source: its name,
// what it does, where it applies, its parameters and which bottlenecks it
// addresses. Listings, the search's priors and prompts read descriptors;
// the profiler's findings name transforms, and a name no descriptor has is
// an error (TransformRegistry::checkPrior).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_TRANSFORMDESCRIPTOR_H
#define OPTIML_TRANSFORM_TRANSFORMDESCRIPTOR_H

#include "optiml/Transform/ParamSpec.h"
#include "optiml/Transform/Site.h"

#include <string>
#include <vector>

namespace optiml {

struct TransformDescriptor {
  std::string Name;    ///< As in steps: `unroll`, `block-size`.
  std::string Summary; ///< One line for --list-transforms.
  SiteKind Kind = SiteKind::Kernel;
  std::vector<ParamSpec> Params;
  /// True when results may differ in the last bits (fast intrinsics), so
  /// verification relies on the spec's tolerance.
  bool ChangesNumerics = false;
  /// The bottleneck classes it can relieve, as the profiler names them
  /// (`memory-bound`, `compute-bound`, `latency-bound`, `too-few-waves`).
  std::vector<std::string> Addresses;
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_TRANSFORMDESCRIPTOR_H
