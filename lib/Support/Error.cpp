//===- Error.cpp - OptiML error kinds ------------------------------------===//

#include "optiml/Support/Error.h"
#include "optiml/Support/ErrorMessages.h"

using namespace optiml;

char OptimlError::ID = 0;

ErrorSummary optiml::summarize(llvm::Error E) {
  ErrorSummary Summary{ErrorKind::Internal, ""};
  unsigned Count = 0;
  llvm::handleAllErrors(
      std::move(E),
      [&](const OptimlError &O) {
        if (Count++ == 0)
          Summary = {O.kind(), O.message()};
      },
      [&](const llvm::ErrorInfoBase &Other) {
        if (Count++ == 0)
          Summary.Message = Other.message();
      });
  if (Count > 1)
    Summary.Message += " (and " + std::to_string(Count - 1) + " more error" +
                       (Count > 2 ? "s" : "") + ")";
  return Summary;
}

std::vector<std::string> optiml::messagesOf(llvm::Error E) {
  std::vector<std::string> Messages;
  llvm::handleAllErrors(std::move(E), [&](const llvm::ErrorInfoBase &Info) {
    Messages.push_back(Info.message());
  });
  return Messages;
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
