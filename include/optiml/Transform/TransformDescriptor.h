//===- TransformDescriptor.h - what a transform is ------------*- C++ -*-===//
//
// Everything about a transform that does not need a source: its name,
// what it does, where it applies, its parameters and which bottlenecks it
// addresses. It is data: each transform's folder holds it as
// `<Folder>.json` (the schema --list-transforms --format=json prints), and
// the build embeds it. Listings, the search's priors and prompts read
// descriptors; the profiler's findings name transforms, and a name no
// descriptor has is an error (checkPriorNames in
// Search/ProfileGuidedPriors.h).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_TRANSFORMDESCRIPTOR_H
#define OPTIML_TRANSFORM_TRANSFORMDESCRIPTOR_H

#include "optiml/Transform/ParamSpec.h"
#include "optiml/Transform/Site.h"

#include "llvm/Support/Error.h"

#include <nlohmann/json_fwd.hpp>

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
  /// True when one step is a whole known-good recipe for what its site is
  /// (tensor-cores turns a matrix-product loop nest into tiled MMA), not
  /// one hint among others: the search ranks its legal steps with the
  /// chains (StepChain), ahead of single steps.
  bool Recipe = false;
  /// The bottleneck classes it can relieve, as the profiler names them
  /// (`memory-bound`, `compute-bound`, `latency-bound`, `too-few-waves`).
  /// The profiler's stage-one priors (Profile/TransformPriors.def) name
  /// exactly the transforms that list a class here; a test keeps the two in
  /// step.
  std::vector<std::string> Addresses;
};

/// A parameter value as JSON: a number when it is one.
nlohmann::json paramValueJSON(llvm::StringRef Value);

/// \p D as --list-transforms --format=json prints it and a descriptor file
/// spells it: domain values that are integers are numbers.
nlohmann::json toJSON(const TransformDescriptor &D);

/// The descriptor spelled by \p Text. Every field is required but
/// `changes_numerics` and `recipe`; an unknown field (a misspelt one), a value
/// of the wrong type, an empty domain, a default outside its domain or a
/// parameter named twice or `site` is an Internal error that begins with \p
/// Origin: descriptors are part of the build, not user input.
llvm::Expected<TransformDescriptor> descriptorFromJSON(llvm::StringRef Text,
                                                       llvm::StringRef Origin);

} // namespace optiml

#endif // OPTIML_TRANSFORM_TRANSFORMDESCRIPTOR_H
