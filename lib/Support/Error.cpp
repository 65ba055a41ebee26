//===- Error.cpp - OptiML error kinds ------------------------------------===//

#include "optiml/Support/Error.h"

using namespace optiml;

char OptimlError::ID = 0;

ErrorSummary optiml::summarize(llvm::Error E) {
  ErrorSummary Summary{ErrorKind::Internal, ""};
  llvm::handleAllErrors(
      std::move(E),
      [&](const OptimlError &O) {
        Summary.Kind = O.kind();
        Summary.Message = O.message();
      },
      [&](const llvm::ErrorInfoBase &Other) {
        Summary.Message = Other.message();
      });
  return Summary;
}

int optiml::exitCodeFor(ErrorKind Kind) {
  switch (Kind) {
  case ErrorKind::BadInput:
    return ExitBadInput;
  case ErrorKind::NotApplicable:
  case ErrorKind::Illegal:
    return ExitIllegal;
  case ErrorKind::NoGPU:
    return ExitNoGPU;
  case ErrorKind::Internal:
    return ExitInternal;
  }
  return ExitInternal;
}
