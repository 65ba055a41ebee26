//===- CommandMeasurer.cpp - a program in the GPU's place ----------------===//

#include "driver/Search/CommandMeasurer.h"
#include "optiml/Support/Interrupt.h"
#include "optiml/Support/Stopwatch.h"
#include "optiml/Support/Subprocess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace optiml;

static Measurement failed(CandidateStatus Status, const llvm::Twine &Log) {
  Measurement M;
  M.Status = Status;
  M.Log = Log.str();
  return M;
}

/// The last line of \p Output that is not blank.
static llvm::StringRef lastLine(llvm::StringRef Output) {
  Output = Output.rtrim();
  size_t Break = Output.find_last_of('\n');
  return Break == llvm::StringRef::npos ? Output.trim()
                                        : Output.drop_front(Break + 1).trim();
}

Measurement CommandMeasurer::measure(const Candidate &C) {
  // After Ctrl-C nothing new runs: the loop drops this result anyway.
  if (stopRequested())
    return failed(CandidateStatus::Error, "interrupted");
  std::optional<std::string> Text = E.sourceText(C.Hash);
  if (!Text)
    return failed(CandidateStatus::Error,
                  "the candidate's source was lost: " + C.Hash);
  llvm::SmallString<128> Path;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
          "optiml-candidate", "cu", FD, Path))
    return failed(CandidateStatus::Error,
                  "cannot write the candidate: " + EC.message());
  llvm::FileRemover Remove(Path);
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << *Text;
  }
  Stopwatch Clock;
  auto Run = runSubprocess(
      Program, {Program, std::string(Path), toString(C.Steps)}, TimeoutSeconds);
  if (!Run)
    return failed(CandidateStatus::Error, llvm::toString(Run.takeError()));
  if (Run->TimedOut)
    return failed(CandidateStatus::TimedOut, Run->Reason);
  if (Run->Signaled)
    return failed(CandidateStatus::Crashed, Run->Reason + "\n" + Run->Output);
  if (Run->ExitCode != 0)
    return failed(CandidateStatus::VerifyFailed, Run->Output);
  double Speedup = 0;
  llvm::StringRef Said = lastLine(Run->Output);
  if (Said.getAsDouble(Speedup) || !(Speedup > 0) || !std::isfinite(Speedup))
    return failed(CandidateStatus::Error,
                  Program + " gave no speedup on its last line: '" + Said +
                      "'");
  Measurement M;
  M.Status = CandidateStatus::Ok;
  M.Speedup = Speedup;
  M.Threshold = NoiseTarget;
  M.Significant = std::fabs(Speedup - 1) > NoiseTarget;
  // A millisecond for the original: the reports show times.
  M.ReferenceTimeNs = 1e6;
  M.TimeNs = 1e6 / Speedup;
  M.Stages["run"] = Clock.seconds();
  return M;
}
