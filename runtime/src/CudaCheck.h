//===- CudaCheck.h - Turn CUDA runtime errors into Error values -*- C++ -*-===//
//
// Part of OptiML. Every CUDA runtime call in the runner goes through
// checkCuda so that a sticky error (the context is dead) is never mistaken for
// an ordinary runner failure.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_CUDACHECK_H
#define OPTIML_RUNTIME_CUDACHECK_H

#include "Status.h"

#include <cuda_runtime.h>
#include <string>

namespace optiml {

/// True for errors after which the CUDA context is unusable: every later call
/// in this process returns the same error (illegal address, trap, ...).
bool isStickyError(cudaError_t E);

/// "cudaErrorIllegalAddress (an illegal memory access was encountered)".
std::string describeCudaError(cudaError_t E);

/// Success for cudaSuccess; otherwise Status::Fault for sticky errors and
/// Status::Error for the rest, with \p What naming the failed call.
Error checkCuda(cudaError_t E, const std::string &What);

} // namespace optiml

#endif // OPTIML_RUNTIME_CUDACHECK_H
