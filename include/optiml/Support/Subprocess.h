//===- Subprocess.h - run a program with a time limit ---------*- C++ -*-===//
//
// Compilers and the GPU runner run as child processes: a candidate that
// hangs or crashes takes its process down, never the tool. Output is
// captured through files so that a chatty child cannot fill a pipe.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SUPPORT_SUBPROCESS_H
#define OPTIML_SUPPORT_SUBPROCESS_H

#include "optiml/Support/LineFollower.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace optiml {

struct SubprocessResult {
  int ExitCode = 0;      ///< Valid when neither TimedOut nor Signaled.
  bool TimedOut = false; ///< Killed after the time limit.
  bool Signaled = false; ///< Ended by a signal (a crash).
  std::string Output;    ///< stdout and stderr, interleaved.
  std::string Reason;    ///< Why it did not exit normally, for logs.

  bool succeeded() const { return !TimedOut && !Signaled && ExitCode == 0; }
};

/// Runs \p Program with \p Args (argv[0] first). A program that cannot be
/// started is an error; one that fails, crashes or times out is a result.
/// \p TimeoutSeconds of 0 waits forever. \p OnLine, when given, sees the
/// child's output line by line as it comes (within a quarter second), so
/// that a long child is no silence. \p Env, when given, is the child's whole
/// environment ("NAME=value" each) instead of this process's. Once the tool
/// was asked to stop (Interrupt.h), the child is killed: the result is then
/// Signaled, its Reason says so.
llvm::Expected<SubprocessResult>
runSubprocess(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
              unsigned TimeoutSeconds, const OutputLineFn &OnLine = nullptr,
              const std::vector<std::string> *Env = nullptr);

/// This process's environment with \p Name set to \p Value (replacing it
/// where it is set), for runSubprocess's \p Env.
std::vector<std::string> environmentWith(llvm::StringRef Name,
                                         llvm::StringRef Value);

/// \p Name on $PATH, or an empty string.
std::string findProgram(llvm::StringRef Name);

} // namespace optiml

#endif // OPTIML_SUPPORT_SUBPROCESS_H
