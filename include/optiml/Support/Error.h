//===- Error.h - OptiML error kinds ---------------------------*- C++ -*-===//
//
// Failure is a value in OptiML. The kind decides what the caller does with
// it: NotApplicable and Illegal prune a search node, BadInput is the user's
// to fix, NoGPU and Internal stop the tool.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SUPPORT_ERROR_H
#define OPTIML_SUPPORT_ERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace optiml {

enum class ErrorKind {
  BadInput,      ///< The user's input (file, option, spec) is wrong.
  NotApplicable, ///< A transform has nothing to act on at a site.
  Illegal,       ///< A transform would change the kernel's meaning.
  NoGPU,         ///< A GPU is needed and none is usable.
  Internal,      ///< A bug in OptiML.
};

/// An error carrying its kind and a one-line message.
class OptimlError : public llvm::ErrorInfo<OptimlError> {
public:
  static char ID;

  OptimlError(ErrorKind Kind, std::string Message)
      : Kind(Kind), Message(std::move(Message)) {}

  ErrorKind kind() const { return Kind; }
  std::string message() const override { return Message; }

  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  ErrorKind Kind;
  std::string Message;
};

inline llvm::Error makeError(ErrorKind Kind, const llvm::Twine &Message) {
  return llvm::make_error<OptimlError>(Kind, Message.str());
}

/// Consumes \p E and tells its kind (Internal for errors that are not
/// OptimlError, such as a failed file read) and its message.
struct ErrorSummary {
  ErrorKind Kind;
  std::string Message;
};
ErrorSummary summarize(llvm::Error E);

/// Process exit codes, one per kind, so scripts can tell them apart.
enum ExitCode : int {
  ExitOK = 0,
  ExitBadInput = 1,
  ExitIllegal = 2,
  ExitNoGPU = 3,
  ExitRejected = 4, ///< An evaluation ran and the candidate was rejected.
  ExitInternal = 70,
};

int exitCodeFor(ErrorKind Kind);

} // namespace optiml

#endif // OPTIML_SUPPORT_ERROR_H
