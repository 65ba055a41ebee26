//===- CuptiCheck.h - Turn CUPTI results into Error values ------*- C++ -*-===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_CUPTICHECK_H
#define OPTIML_RUNTIME_CUPTICHECK_H

#include "Status.h"

#include <cupti_result.h>
#include <string>

namespace optiml {

/// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: <CUPTI's description>".
std::string describeCupti(CUptiResult R);

/// Success for CUPTI_SUCCESS, otherwise Status::Error naming \p What.
Error checkCupti(CUptiResult R, const std::string &What);

} // namespace optiml

#endif // OPTIML_RUNTIME_CUPTICHECK_H
