//===- Subprocess.cpp - run a program with a time limit ------------------===//

#include "optiml/Support/Subprocess.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

using namespace optiml;

llvm::Expected<SubprocessResult>
optiml::runSubprocess(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
                      unsigned TimeoutSeconds) {
  llvm::SmallString<128> LogPath;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("optiml-child", "log", LogPath))
    return makeError(ErrorKind::Internal,
                     "cannot create a temporary file: " + EC.message());
  llvm::FileRemover RemoveLog(LogPath);

  std::vector<llvm::StringRef> Argv(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(LogPath), llvm::StringRef(LogPath)};
  std::string ErrMsg;
  bool ExecutionFailed = false;
  int RC = llvm::sys::ExecuteAndWait(
      Program, Argv, /*Env=*/std::nullopt, Redirects, TimeoutSeconds,
      /*MemoryLimit=*/0, &ErrMsg, &ExecutionFailed);
  if (ExecutionFailed)
    return makeError(ErrorKind::BadInput,
                     "cannot run " + Program + ": " + ErrMsg);

  SubprocessResult R;
  if (auto Log = llvm::MemoryBuffer::getFile(LogPath))
    R.Output = (*Log)->getBuffer().str();
  if (RC >= 0) {
    R.ExitCode = RC;
    return R;
  }
  // LLVM reports both a time-out and a fatal signal as -2; its message
  // tells them apart.
  R.Reason = ErrMsg;
  if (llvm::StringRef(ErrMsg).contains_insensitive("timed out"))
    R.TimedOut = true;
  else
    R.Signaled = true;
  return R;
}

std::string optiml::findProgram(llvm::StringRef Name) {
  auto Path = llvm::sys::findProgramByName(Name);
  return Path ? *Path : std::string();
}
