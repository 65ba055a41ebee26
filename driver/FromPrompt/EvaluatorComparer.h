//===- EvaluatorComparer.h - two generated kernels on the GPU --*- C++ -*-===//
//
// KernelComparer over the evaluation path that --evaluate --candidate
// uses: both built, each launched as its own spec says, verified on every
// instance and seed, timed side by side.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_EVALUATORCOMPARER_H
#define OPTIML_DRIVER_EVALUATORCOMPARER_H

#include "driver/FromPrompt/KernelComparer.h"
#include "optiml/Eval/Evaluator.h"

namespace optiml {

class EvaluatorComparer : public KernelComparer {
public:
  EvaluatorComparer(const Evaluator &Eval, const Runner &R)
      : Eval(Eval), R(R) {}

  llvm::Expected<Comparison>
  compare(const CheckedKernel &First,
          const CheckedKernel &Second) const override;

private:
  const Evaluator &Eval;
  const Runner &R;
};

} // namespace optiml

#endif // OPTIML_DRIVER_EVALUATORCOMPARER_H
