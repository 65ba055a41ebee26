//===- KernelComparer.h - two generated kernels on the GPU -----*- C++ -*-===//
//
// The cross-check of --from-prompt compares kernels written by a model in
// pairs with the evaluation path that --evaluate --candidate uses: one
// plays the original (the reference, or a candidate when candidates are
// compared with each other), the other the candidate, each launched as its
// own spec says, on every instance and seed, timed side by side.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_KERNELCOMPARER_H
#define OPTIML_DRIVER_KERNELCOMPARER_H

#include "optiml/Driver/GeneratedKernelChecker.h"
#include "optiml/Eval/AgreementMatrix.h"
#include "optiml/Eval/Evaluator.h"

namespace optiml {

struct Comparison {
  Agreement Verdict = Agreement::Unknown;
  std::string Status; ///< The evaluation's ("ok", "verify_failed", ...).
  std::string Detail; ///< What went wrong, one line; empty when nothing.
  double FirstNs = 0, SecondNs = 0; ///< Median times, when timed.
};

class KernelComparer {
public:
  KernelComparer(const Evaluator &Eval, const Runner &R) : Eval(Eval), R(R) {}

  /// \p Second checked against \p First on the GPU. Only a tool failure
  /// is an error; a kernel that fails is a Comparison saying so.
  llvm::Expected<Comparison> compare(const CheckedKernel &First,
                                     const CheckedKernel &Second) const;

private:
  const Evaluator &Eval;
  const Runner &R;
};

} // namespace optiml

#endif // OPTIML_DRIVER_KERNELCOMPARER_H
