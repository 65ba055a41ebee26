//===- FromPromptAction.h - --from-prompt: a kernel from words -*- C++ -*-===//

#ifndef OPTIML_DRIVER_FROMPROMPTACTION_H
#define OPTIML_DRIVER_FROMPROMPTACTION_H

#include "driver/Optimize/OptimizeOptions.h"
#include "driver/Session/Driver.h"
#include "optiml/Eval/RunPlan.h"
#include "optiml/LLM/LlmConfig.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

struct FromPromptOptions {
  std::string Description;     ///< What the kernel must compute.
  std::string DescriptionFile; ///< Where it was read from; may be empty.
  std::string Name;            ///< Empty: the model names the kernel.
  unsigned Thoughts = 3;       ///< Strategies, one kernel each.
  std::string OutputPath;      ///< Required.
  std::string Arch;            ///< Empty: the GPU's own, else sm_90.
  std::vector<std::string> NvccFlags;
  std::string DbPath; ///< Empty: Database::defaultPath().
  LlmConfig Llm;
  unsigned ReferenceAttempts = 2; ///< References written before giving up.
  MeasureOptions Measure;
  unsigned TimeoutSeconds = 300; ///< For one runner process.
  /// Set: the search continues from the chosen kernel (its OutputPath is
  /// OutputPath, its Kernel the generated one).
  std::optional<OptimizeOptions> Optimize;
};

class FromPromptAction : public Driver {
public:
  explicit FromPromptAction(const Driver &Session) : Driver(Session) {}

  /// Asks the model for a kernel's interface (signature and spec), for
  /// Options.Thoughts strategies, one kernel each and a simple reference;
  /// checks each statically (one repair round), cross-checks them on the
  /// GPU when there is one and writes the fastest verified kernel with the
  /// reference beside it, and a report. ExitOK when a kernel was written,
  /// ExitRejected when the reference could not be trusted.
  llvm::Expected<int> fromPrompt(const FromPromptOptions &Options);
};

} // namespace optiml

#endif // OPTIML_DRIVER_FROMPROMPTACTION_H
