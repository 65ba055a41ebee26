//===- CudaCheck.cpp - Turn CUDA runtime errors into Error values ---------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "CudaCheck.h"

namespace optiml {

bool isStickyError(cudaError_t E) {
  // The CUDA runtime documents these as leaving "the process in an
  // inconsistent state": any further CUDA work returns the same error.
  switch (E) {
  case cudaErrorIllegalAddress:
  case cudaErrorLaunchTimeout:
  case cudaErrorContextIsDestroyed:
  case cudaErrorAssert:
  case cudaErrorHardwareStackError:
  case cudaErrorIllegalInstruction:
  case cudaErrorMisalignedAddress:
  case cudaErrorInvalidAddressSpace:
  case cudaErrorInvalidPc:
  case cudaErrorLaunchFailure:
  case cudaErrorTensorMemoryLeak:
  case cudaErrorECCUncorrectable:
  case cudaErrorNvlinkUncorrectable:
  case cudaErrorContained:
  case cudaErrorExternalDevice:
    return true;
  default:
    return false;
  }
}

std::string describeCudaError(cudaError_t E) {
  return std::string(cudaGetErrorName(E)) + " (" + cudaGetErrorString(E) + ")";
}

Error checkCuda(cudaError_t E, const std::string &What) {
  if (E == cudaSuccess)
    return Error::success();
  Status S = isStickyError(E) ? Status::Fault : Status::Error;
  return Error(S, What + " failed: " + describeCudaError(E));
}

} // namespace optiml
