//===- EvaluateAction.h - --evaluate: build, verify, time ------*- C++ -*-===//

#ifndef OPTIML_DRIVER_EVALUATEACTION_H
#define OPTIML_DRIVER_EVALUATEACTION_H

#include "driver/Session/Driver.h"
#include "optiml/Eval/RunPlan.h"

#include <string>
#include <vector>

namespace optiml {

struct EvaluateOptions {
  std::string Kernel;    ///< Empty: the file's only kernel.
  std::string Candidate; ///< Empty: the reference against itself.
  std::string SpecPath;  ///< Empty: the mark and/or <file>.optiml.json.
  std::string Arch;      ///< Empty: the GPU's own, else sm_90.
  std::vector<std::string> NvccFlags;
  MeasureOptions Measure;
  unsigned TimeoutSeconds = 300; ///< For one runner process.
  bool BuildOnly = false;        ///< Compile and report; no GPU needed.
};

class EvaluateAction : public Driver {
public:
  explicit EvaluateAction(const Driver &Session) : Driver(Session) {}

  /// Builds, verifies and times a kernel (or a candidate file against it)
  /// on the GPU. Returns the exit code: ExitOK when the candidate is
  /// accepted, ExitRejected when it is not; tool failures and a missing GPU
  /// are errors.
  llvm::Expected<int> evaluate(llvm::StringRef File,
                               const EvaluateOptions &Options,
                               OutputFormat Format);

  /// --evaluate of every kernel of \p File that has a spec, one report
  /// each and a summary line, when Options.Kernel is empty and there are
  /// several; else evaluate(). Returns the worst exit code.
  llvm::Expected<int> evaluateEach(llvm::StringRef File,
                                   const EvaluateOptions &Options,
                                   OutputFormat Format);

private:
  llvm::Error checkCandidateFile(const KernelSource &Original,
                                 const KernelSource &Candidate,
                                 const KernelInfo &Kernel);
};

} // namespace optiml

#endif // OPTIML_DRIVER_EVALUATEACTION_H
