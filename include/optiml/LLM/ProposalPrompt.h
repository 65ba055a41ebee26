//===- ProposalPrompt.h - what a model is told about a state ---*- C++ -*-===//
//
// The variables of the `propose` prompt, from a ProposalContext: the source
// and spec, the device, the bottleneck class and the findings with their
// evidence (stage one first, as the micro-profiler orders them), the legal
// actions with their parameters' domains (ActionSpace, as --list-sites
// shows them) and the trajectory so far. Plain text, so that any model
// reads it and a reviewer can diff two versions.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_PROPOSALPROMPT_H
#define OPTIML_LLM_PROPOSALPROMPT_H

#include "optiml/LLM/Proposer.h"
#include "optiml/Transform/ActionSpace.h"
#include "optiml/Transform/TransformRegistry.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace optiml {

class ProposalPrompt {
public:
  /// The values of every variable the propose prompt may declare, for the
  /// actions \p Actions of \p C's state and the answer's \p Schema.
  static std::map<std::string, std::string>
  variables(const ProposalContext &C, const TransformRegistry &Registry,
            llvm::ArrayRef<Action> Actions, const nlohmann::json &Schema);

  static std::string device(const std::optional<DeviceFacts> &D);
  static std::string findings(llvm::StringRef Bottleneck,
                              const std::vector<Finding> &Findings);
  static std::string actions(llvm::ArrayRef<Action> Actions,
                             const TransformRegistry &Registry);
  static std::string trajectory(const std::vector<TrajectoryEntry> &Steps);
};

} // namespace optiml

#endif // OPTIML_LLM_PROPOSALPROMPT_H
