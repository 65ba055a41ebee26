//===- Status.cpp - Runner outcomes and exit codes ------------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Status.h"

namespace optiml {

int exitCode(Status S) {
  switch (S) {
  case Status::Ok:
    return 0;
  case Status::VerifyFailed:
    return 1;
  case Status::Fault:
  case Status::LaunchError:
    return 2;
  case Status::BadPlan:
  case Status::LoadError:
    return 3;
  case Status::NoGpu:
    return 4;
  case Status::Error:
  case Status::Incomplete:
    return 5;
  }
  return 5;
}

} // namespace optiml
