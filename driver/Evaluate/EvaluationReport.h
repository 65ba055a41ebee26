//===- EvaluationReport.h - print an evaluation for people ----*- C++ -*-===//

#ifndef OPTIML_DRIVER_EVALUATIONREPORT_H
#define OPTIML_DRIVER_EVALUATIONREPORT_H

#include "optiml/Eval/Evaluator.h"

#include "llvm/Support/raw_ostream.h"

namespace optiml {

/// The verdict first, then both times with their spread, the speedup with
/// its noise, the resource usage and the hardware counters when measured.
void printEvaluation(const Evaluation &E, llvm::StringRef Kernel,
                     llvm::raw_ostream &OS);

} // namespace optiml

#endif // OPTIML_DRIVER_EVALUATIONREPORT_H
