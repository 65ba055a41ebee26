//===- Runner.cpp - the GPU runner as a child process --------------------===//

#include "optiml/Eval/Runner.h"
#include "optiml/Support/CacheDir.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Subprocess.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"

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

static std::string findRuntimeSources(const char *Argv0) {
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

static std::string findJsonInclude(const char *Argv0) {
  std::string Bundled = besideExecutable(Argv0, "include");
  if (fs::exists(Bundled + "/nlohmann/json.hpp"))
    return Bundled;
  return OPTIML_JSON_INCLUDE_DIR;
}

/// A hash over every file of the runtime sources: a changed source is a new
/// runner.
static std::string hashTree(llvm::StringRef Root) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
       It.increment(EC))
    if (fs::is_regular_file(It->path()))
      Files.push_back(It->path());
  llvm::sort(Files);
  llvm::SHA256 Hash;
  for (const std::string &F : Files) {
    Hash.update(F.substr(Root.size()));
    if (auto Buf = llvm::MemoryBuffer::getFile(F))
      Hash.update((*Buf)->getBuffer());
  }
  return llvm::toHex(Hash.final(), true).substr(0, 24);
}

llvm::Expected<Runner> Runner::prepare(const char *Argv0,
                                       llvm::StringRef Arch) {
  std::string Sources = findRuntimeSources(Argv0);
  if (Sources.empty())
    return makeError(ErrorKind::BadInput,
                     "runtime sources not found: set OPTIML_RUNTIME_DIR to the "
                     "runtime/ folder of OptiML");
  std::string CMake = findProgram("cmake");
  if (CMake.empty())
    return makeError(ErrorKind::BadInput,
                     "cmake not found: it builds the GPU runner at first use");
  auto Root = cacheDir("runner/" + hashTree(Sources) + "-" + Arch.str());
  if (!Root)
    return Root.takeError();
  std::string Exe = *Root + "/optiml-runner";
  if (fs::can_execute(Exe))
    return Runner(Exe);

  std::string ArchNumber =
      Arch.drop_front(Arch.starts_with("sm_") ? 3 : 0).str();
  auto Configure = runSubprocess(
      CMake,
      {CMake, "-S", Sources, "-B", *Root, "-DCMAKE_BUILD_TYPE=Release",
       "-DCMAKE_CUDA_ARCHITECTURES=" + ArchNumber,
       "-DOPTIML_JSON_INCLUDE_DIR=" + findJsonInclude(Argv0)},
      600);
  if (!Configure)
    return Configure.takeError();
  auto Build = Configure->succeeded()
                   ? runSubprocess(CMake,
                                   {CMake, "--build", *Root, "--target",
                                    "optiml-runner", "-j4"},
                                   900)
                   : std::move(Configure);
  if (!Build)
    return Build.takeError();
  if (!Build->succeeded() || !fs::can_execute(Exe))
    return makeError(ErrorKind::Internal, "building the GPU runner in " +
                                              *Root + " failed:\n" +
                                              Build->Output);
  return Runner(Exe);
}

llvm::Expected<nlohmann::json> Runner::run(const nlohmann::json &Plan,
                                           unsigned TimeoutSeconds) const {
  llvm::SmallString<128> PlanPath, ResultPath;
  if (std::error_code EC =
          fs::createTemporaryFile("optiml-plan", "json", PlanPath))
    return makeError(ErrorKind::Internal, "temporary file: " + EC.message());
  if (std::error_code EC =
          fs::createTemporaryFile("optiml-result", "json", ResultPath))
    return makeError(ErrorKind::Internal, "temporary file: " + EC.message());
  llvm::FileRemover RemovePlan(PlanPath), RemoveResult(ResultPath);
  fs::remove(ResultPath);
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(PlanPath, EC);
    OS << Plan.dump(2);
  }

  auto Run = runSubprocess(Executable,
                           {Executable, "--plan", std::string(PlanPath),
                            "--out", std::string(ResultPath)},
                           TimeoutSeconds);
  if (!Run)
    return Run.takeError();
  if (!Run->TimedOut && !Run->Signaled && Run->ExitCode == RunnerNoGPU)
    return makeError(ErrorKind::NoGPU,
                     "no CUDA GPU usable by the runner: " +
                         llvm::StringRef(Run->Output).trim().take_back(300));
  // The runner rewrites its result file at every step, so even a killed
  // runner leaves the phase it was in.
  nlohmann::json Result;
  if (auto Buf = llvm::MemoryBuffer::getFile(ResultPath))
    Result = nlohmann::json::parse((*Buf)->getBuffer().str(), nullptr, false);
  if (Result.is_discarded() || !Result.is_object())
    Result = nlohmann::json::object();
  if (Run->TimedOut) {
    Result["status"] = "timeout";
    Result["error"] =
        "the runner was killed after " + std::to_string(TimeoutSeconds) + " s";
  } else if (Run->Signaled) {
    Result["status"] = "crash";
    Result["error"] = Run->Reason;
  } else if (!Result.contains("status")) {
    Result["status"] = "runner_error";
    Result["error"] = "the runner exited with " +
                      std::to_string(Run->ExitCode) + " and wrote no result";
  }
  Result["runner_log"] = llvm::StringRef(Run->Output).take_back(8000).str();
  return Result;
}
