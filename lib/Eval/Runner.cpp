//===- Runner.cpp - the GPU runner as a child process --------------------===//

#include "optiml/Eval/Runner.h"
#include "optiml/Protocol/Document.h"
#include "optiml/Support/CacheDir.h"
#include "optiml/Support/CacheEntryLock.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/OutputPath.h"
#include "optiml/Support/Stopwatch.h"
#include "optiml/Support/Subprocess.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace optiml;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// The runner's exit code when the machine has no usable GPU (docs/Runner.md).
static constexpr int RunnerNoGPU = 4;

static std::string besideExecutable(const char *Argv0, llvm::StringRef Rel) {
  static int Anchor;
  llvm::SmallString<256> P(fs::getMainExecutable(Argv0, &Anchor));
  path::remove_filename(P);
  path::append(P, "..", Rel);
  path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::string Runner::findSources(const char *Argv0) {
  std::vector<std::string> Candidates;
  if (auto Env = llvm::sys::Process::GetEnv("OPTIML_RUNTIME_DIR"))
    Candidates.push_back(*Env);
  Candidates.push_back(besideExecutable(Argv0, "runtime"));
  Candidates.push_back(besideExecutable(Argv0, "share/optiml/runtime"));
  Candidates.push_back(OPTIML_SOURCE_DIR "/runtime");
  for (const std::string &C : Candidates)
    if (fs::exists(C + "/CMakeLists.txt"))
      return C;
  return "";
}

/// nlohmann/json.hpp for the runner: the installed prefix's (also the GPU
/// bundle's, where no nlohmann may be installed), then the build machine's.
static std::string findJsonInclude(const char *Argv0) {
  for (llvm::StringRef Rel : {"share/optiml/include", "include"}) {
    std::string Bundled = besideExecutable(Argv0, Rel);
    if (fs::exists(Bundled + "/nlohmann/json.hpp"))
      return Bundled;
  }
  return OPTIML_JSON_INCLUDE_DIR;
}

/// The protocol headers the runner compiles in: the include/ folder beside
/// the runtime sources, in the source tree and in the GPU bundle alike.
static std::string findProtocolInclude(llvm::StringRef Sources) {
  llvm::SmallString<256> P(Sources);
  path::append(P, "..", "include");
  path::remove_dots(P, /*remove_dot_dot=*/true);
  if (!fs::exists(llvm::Twine(P) + "/optiml/Protocol/RunPlan.h"))
    return "";
  return std::string(P);
}

/// A hash over every file of the runtime sources and the protocol headers:
/// a changed source is a new runner.
static std::string hashTrees(llvm::ArrayRef<std::string> Roots) {
  llvm::SHA256 Hash;
  for (const std::string &Root : Roots) {
    std::vector<std::string> Files;
    std::error_code EC;
    for (fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
         It.increment(EC))
      if (fs::is_regular_file(It->path()))
        Files.push_back(It->path());
    llvm::sort(Files);
    for (const std::string &F : Files) {
      Hash.update(F.substr(Root.size()));
      if (auto Buf = llvm::MemoryBuffer::getFile(F))
        Hash.update((*Buf)->getBuffer());
    }
  }
  return llvm::toHex(Hash.final(), true).substr(0, 24);
}

/// Passes the build's progress ("[ 40%] Building ...") on to \p Log, a
/// line per quarter, so that a minute's build shows it moves.
static OutputLineFn buildProgress(llvm::raw_ostream *Log) {
  if (!Log)
    return nullptr;
  return [Log, Shown = 0u](llvm::StringRef Line) mutable {
    unsigned Percent = 0;
    llvm::StringRef Rest = Line.trim();
    if (!Rest.consume_front("[") || Rest.trim().consumeInteger(10, Percent))
      return;
    if (Percent < Shown + 25 || Percent == 100)
      return;
    Shown = Percent - Percent % 25;
    *Log << "clang-optiml: building the GPU runner: " << Percent << "%\n";
    Log->flush();
  };
}

llvm::Expected<Runner> Runner::prepare(const char *Argv0, llvm::StringRef Arch,
                                       llvm::raw_ostream *Log) {
  std::string Sources = findSources(Argv0);
  if (Sources.empty())
    return makeError(ErrorKind::BadInput,
                     "runtime sources not found: set OPTIML_RUNTIME_DIR to the "
                     "runtime/ folder of OptiML");
  std::string Protocol = findProtocolInclude(Sources);
  if (Protocol.empty())
    return makeError(ErrorKind::BadInput,
                     "runner protocol headers not found: expected "
                     "include/optiml/Protocol/ beside " +
                         Sources);
  std::string CMake = findProgram("cmake");
  if (CMake.empty())
    return makeError(ErrorKind::BadInput,
                     "cmake not found: it builds the GPU runner at first use");
  auto Root =
      cacheDir("runner/" + hashTrees({Sources, Protocol + "/optiml/Protocol"}) +
               "-" + Arch.str());
  if (!Root)
    return Root.takeError();
  std::string Exe = *Root + "/optiml-runner";
  auto Lock = CacheEntryLock::acquire(*Root);
  if (!Lock)
    return Lock.takeError();
  if (fs::can_execute(Exe))
    return Runner(Exe);

  if (Log)
    *Log << "clang-optiml: building the GPU runner for " << Arch
         << " (once per toolkit and architecture, about a minute) in " << *Root
         << "\n";
  Stopwatch Clock;
  std::string ArchNumber =
      Arch.drop_front(Arch.starts_with("sm_") ? 3 : 0).str();
  auto Configure = runSubprocess(
      CMake,
      {CMake, "-S", Sources, "-B", *Root, "-DCMAKE_BUILD_TYPE=Release",
       "-DCMAKE_CUDA_ARCHITECTURES=" + ArchNumber,
       "-DOPTIML_JSON_INCLUDE_DIR=" + findJsonInclude(Argv0),
       "-DOPTIML_PROTOCOL_INCLUDE_DIR=" + Protocol},
      600);
  if (!Configure)
    return Configure.takeError();
  auto Build = Configure->succeeded()
                   ? runSubprocess(CMake,
                                   {CMake, "--build", *Root, "--target",
                                    "optiml-runner", "-j4"},
                                   900, buildProgress(Log))
                   : std::move(Configure);
  if (!Build)
    return Build.takeError();
  if (!Build->succeeded() || !fs::can_execute(Exe))
    return makeError(ErrorKind::Internal, "building the GPU runner in " +
                                              *Root + " failed:\n" +
                                              Build->Output);
  if (Log)
    *Log << "clang-optiml: the runner was built in "
         << llvm::format("%.0f", Clock.seconds()) << " s\n";
  return Runner(Exe);
}

/// The result file, decoded; std::nullopt when there is none. A result
/// that does not decode is a runner_error outcome, unless it has another
/// schema version: then the runner was built from other sources than this
/// tool, and every run would fail alike.
static llvm::Expected<std::optional<protocol::RunResult>>
readResult(llvm::StringRef Path, std::string &Unreadable) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return std::nullopt;
  protocol::RunResult Result;
  auto Failed = protocol::decodeText((*Buf)->getBuffer().str(), Result);
  if (!Failed)
    return Result;
  if (Failed->kind() == protocol::ProtocolError::Kind::VersionMismatch)
    return makeError(ErrorKind::Internal,
                     llvm::Twine("the runner's result does not match this "
                                 "tool: ") +
                         Failed->what() +
                         " (remove the cached runner to rebuild it)");
  Unreadable = Failed->what();
  return std::nullopt;
}

/// The runner's progress lines ("optiml-runner: <phase>") as phases.
static OutputLineFn
phaseLines(const std::function<void(llvm::StringRef Phase)> &OnPhase) {
  if (!OnPhase)
    return nullptr;
  return [&OnPhase](llvm::StringRef Line) {
    if (Line.consume_front("optiml-runner: "))
      OnPhase(Line.trim());
  };
}

std::string Runner::visibleDeviceOf(int Ordinal) {
  // The runtime's ordinals count the GPUs this process may see: with
  // CUDA_VISIBLE_DEVICES set, ordinal N is its N-th entry.
  llvm::SmallVector<llvm::StringRef, 8> Visible;
  auto Env = llvm::sys::Process::GetEnv("CUDA_VISIBLE_DEVICES");
  if (Env)
    llvm::StringRef(*Env).split(Visible, ',', -1, /*KeepEmpty=*/false);
  if (Ordinal >= 0 && size_t(Ordinal) < Visible.size())
    return Visible[Ordinal].trim().str();
  return std::to_string(Ordinal);
}

Runner Runner::onDevice(int Ordinal) const {
  Runner R = *this;
  R.VisibleDevice = visibleDeviceOf(Ordinal);
  R.Worker.reset(); // A worker serves one GPU.
  return R;
}

Runner Runner::persistent() const {
  Runner R = *this;
  R.Worker = std::make_shared<RunnerWorker>(Executable, VisibleDevice);
  return R;
}

llvm::Expected<RunOutcome>
Runner::run(const protocol::RunPlan &Plan, unsigned TimeoutSeconds,
            const std::function<void(llvm::StringRef Phase)> &OnPhase) const {
  llvm::SmallString<128> PlanPath, ResultPath;
  if (std::error_code EC =
          fs::createTemporaryFile("optiml-plan", "json", PlanPath))
    return makeError(ErrorKind::Internal, "temporary file: " + EC.message());
  if (std::error_code EC =
          fs::createTemporaryFile("optiml-result", "json", ResultPath))
    return makeError(ErrorKind::Internal, "temporary file: " + EC.message());
  llvm::FileRemover RemovePlan(PlanPath), RemoveResult(ResultPath);
  fs::remove(ResultPath);
  if (llvm::Error E = writeOutputFile(PlanPath, protocol::encode(Plan)))
    return E;

  llvm::Expected<SubprocessResult> Run = SubprocessResult();
  if (Worker) {
    Run = Worker->run(PlanPath, ResultPath, TimeoutSeconds,
                      phaseLines(OnPhase));
  } else {
    std::optional<std::vector<std::string>> Env;
    if (!VisibleDevice.empty())
      Env = environmentWith("CUDA_VISIBLE_DEVICES", VisibleDevice);
    Run = runSubprocess(Executable,
                        {Executable, "--plan", std::string(PlanPath),
                         "--out", std::string(ResultPath)},
                        TimeoutSeconds, phaseLines(OnPhase),
                        Env ? &*Env : nullptr);
  }
  if (!Run)
    return Run.takeError();
  if (!Run->TimedOut && !Run->Signaled && Run->ExitCode == RunnerNoGPU)
    return makeError(ErrorKind::NoGPU,
                     "no CUDA GPU usable by the runner: " +
                         llvm::StringRef(Run->Output).trim().take_back(300));
  // The runner rewrites its result file at every step, so even a killed
  // runner leaves the phase it was in.
  RunOutcome O;
  std::string Unreadable;
  auto Result = readResult(ResultPath, Unreadable);
  if (!Result)
    return Result.takeError();
  O.Result = std::move(*Result);
  O.Log = llvm::StringRef(Run->Output).take_back(8000).str();
  if (Run->TimedOut) {
    O.Status = "timeout";
    // A worker still waiting for a GPU another search held says so.
    O.Error = llvm::StringRef(Run->Reason).starts_with("waited")
                  ? "the runner was killed: it " + Run->Reason
                  : "the runner was killed after " +
                        std::to_string(TimeoutSeconds) + " s";
  } else if (Run->Signaled) {
    O.Status = "crash";
    O.Error = Run->Reason;
  } else if (!O.Result) {
    O.Status = "runner_error";
    O.Error =
        "the runner exited with " + std::to_string(Run->ExitCode) +
        (Unreadable.empty() ? " and wrote no result"
                            : " and wrote an unreadable result: " + Unreadable);
  } else {
    O.Status = protocol::statusName(O.Result->Status);
    O.Error = O.Result->Error.value_or("");
  }
  return O;
}
