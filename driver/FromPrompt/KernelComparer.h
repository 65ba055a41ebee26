//===- KernelComparer.h - do two generated kernels agree? ------*- C++ -*-===//
//
// The cross-check of --from-prompt compares kernels written by a model in
// pairs: one plays the original (the reference, or a candidate when
// candidates are compared with each other), the other the candidate. On a
// GPU that is the evaluation path of --evaluate --candidate
// (EvaluatorComparer); the interface lets the cross-check's decisions be
// tested without one.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_KERNELCOMPARER_H
#define OPTIML_DRIVER_KERNELCOMPARER_H

#include "driver/FromPrompt/GeneratedKernelChecker.h"
#include "optiml/Eval/AgreementMatrix.h"

namespace optiml {

struct Comparison {
  Agreement Verdict = Agreement::Unknown;
  std::string Status; ///< The evaluation's ("ok", "verify_failed", ...).
  std::string Detail; ///< What went wrong, one line; empty when nothing.
  double FirstNs = 0, SecondNs = 0; ///< Median times, when timed.
};

class KernelComparer {
public:
  virtual ~KernelComparer();

  /// \p Second checked against \p First. Only a tool failure is an error;
  /// a kernel that fails is a Comparison saying so.
  virtual llvm::Expected<Comparison>
  compare(const CheckedKernel &First, const CheckedKernel &Second) const = 0;
};

} // namespace optiml

#endif // OPTIML_DRIVER_KERNELCOMPARER_H
