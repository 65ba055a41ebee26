//===- Builder.cpp - candidates to shared objects with nvcc --------------===//

#include "optiml/Eval/Builder.h"
#include "optiml/Eval/LauncherGenerator.h"
#include "optiml/Support/CacheDir.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Interrupt.h"
#include "optiml/Support/JsonText.h"
#include "optiml/Support/OutputPath.h"
#include "optiml/Support/Stopwatch.h"
#include "optiml/Support/Subprocess.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <iterator>

#include <nlohmann/json.hpp>

#define DEBUG_TYPE "optiml-builder"

using namespace optiml;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// A dump takes well under a second; this only guards against a hang.
static constexpr unsigned CuobjdumpTimeoutSeconds = 120;

std::string optiml::findNvcc() {
  if (auto Cuda = llvm::sys::Process::GetEnv("CUDA_PATH")) {
    llvm::SmallString<256> P(*Cuda);
    path::append(P, "bin", "nvcc");
    if (fs::can_execute(P))
      return std::string(P);
  }
  if (std::string P = findProgram("nvcc"); !P.empty())
    return P;
  return fs::can_execute("/usr/local/cuda/bin/nvcc")
             ? "/usr/local/cuda/bin/nvcc"
             : "";
}

/// cuobjdump of the same toolkit as \p Nvcc, else the one on $PATH; empty
/// when there is none (some toolkits ship only the compilers).
static std::string findCuobjdump(llvm::StringRef Nvcc) {
  llvm::SmallString<256> Beside(path::parent_path(Nvcc));
  path::append(Beside, "cuobjdump");
  if (fs::can_execute(Beside))
    return std::string(Beside);
  return findProgram("cuobjdump");
}

llvm::Expected<Builder> Builder::create(BuildOptions Options) {
  if (Options.Nvcc.empty())
    Options.Nvcc = findNvcc();
  if (Options.Nvcc.empty())
    return makeError(ErrorKind::BadInput,
                     "nvcc not found: set CUDA_PATH or put nvcc on PATH");
  if (Options.Cuobjdump.empty())
    Options.Cuobjdump = findCuobjdump(Options.Nvcc);
  if (Options.CacheRoot.empty()) {
    auto Dir = cacheDir("builds");
    if (!Dir)
      return Dir.takeError();
    Options.CacheRoot = *Dir;
  }
  auto Version = runSubprocess(Options.Nvcc, {Options.Nvcc, "--version"}, 60);
  if (!Version)
    return Version.takeError();
  if (!Version->succeeded())
    return makeError(ErrorKind::BadInput,
                     Options.Nvcc + " --version failed: " + Version->Output);
  return Builder(std::move(Options), Version->Output);
}

std::string Builder::nvccRelease() const {
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  llvm::StringRef(NvccVersion).split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (L.contains("release"))
      return L.trim().str();
  return llvm::StringRef(NvccVersion).trim().str();
}

std::vector<std::string> Builder::nvccArgs(llvm::StringRef SourceDir,
                                           llvm::StringRef Launcher,
                                           llvm::StringRef Library) const {
  std::vector<std::string> Args = {
      Options.Nvcc, "-O3", "-arch=" + Options.Arch, "-lineinfo",
      "--resource-usage", "-Xcompiler", "-fPIC", "-shared",
      // One CUDA runtime for the runner and every candidate it loads.
      "-cudart", "shared", "-I" + SourceDir.str()};
  // nvcc refuses a second -std: the last one given (the user's after the
  // project's) replaces our C++17.
  auto IsStd = [](llvm::StringRef F) {
    return F.starts_with("-std=") || F.starts_with("--std=");
  };
  const auto &Extra = Options.ExtraFlags;
  auto LastStd = std::find_if(Extra.rbegin(), Extra.rend(), IsStd);
  if (LastStd == Extra.rend())
    Args.push_back("-std=c++17");
  for (auto It = Extra.begin(); It != Extra.end(); ++It)
    if (!IsStd(*It) || It == std::prev(LastStd.base()))
      Args.push_back(*It);
  Args.insert(Args.end(), {Launcher.str(), "-o", Library.str()});
  return Args;
}

std::string Builder::cacheKey(llvm::StringRef Launcher,
                              llvm::StringRef SourceDir) const {
  llvm::SHA256 Hash;
  Hash.update(Launcher);
  for (const std::string &A : nvccArgs(SourceDir, "", ""))
    Hash.update(A + "\n");
  Hash.update(NvccVersion);
  return llvm::toHex(Hash.final(), /*LowerCase=*/true).substr(0, 32);
}

static llvm::Expected<BuildResult> readCached(llvm::StringRef Dir,
                                              const std::string &Key) {
  llvm::SmallString<256> Record(Dir);
  path::append(Record, "build.json");
  auto Buf = llvm::MemoryBuffer::getFile(Record);
  if (!Buf)
    return makeError(ErrorKind::Internal, "no cached build");
  nlohmann::json J = nlohmann::json::parse((*Buf)->getBuffer().str(), nullptr,
                                           /*allow_exceptions=*/false);
  if (J.is_discarded() || !J.contains("succeeded"))
    return makeError(ErrorKind::Internal, "corrupt cached build " + Record);
  BuildResult R;
  R.Cached = true;
  R.Key = Key;
  R.Succeeded = J.value("succeeded", false);
  R.Log = J.value("log", "");
  R.Library = J.value("library", "");
  if (R.Succeeded && !fs::exists(R.Library))
    return makeError(ErrorKind::Internal, "cached library is gone");
  return R;
}

static void writeRecord(llvm::StringRef Dir, const BuildResult &R) {
  nlohmann::json J = {
      {"succeeded", R.Succeeded}, {"library", R.Library}, {"log", R.Log}};
  if (R.Usage)
    J["usage"] = toJSON(*R.Usage);
  llvm::SmallString<256> Record(Dir);
  path::append(Record, "build.json");
  // A record that cannot be written (a full disk) only costs a rebuild.
  llvm::consumeError(writeOutputFile(Record, jsonText(J) + "\n"));
}

llvm::Expected<BuildResult> Builder::build(const KernelSource &Source,
                                           const KernelInfo &Kernel) const {
  Stopwatch Clock;
  auto Timed = [&](BuildResult R) {
    R.Seconds = Clock.seconds();
    return R;
  };
  auto Launcher = generateLauncher(Source, Kernel);
  if (!Launcher)
    return Launcher.takeError();
  llvm::SmallString<256> SourceDir(Source.path());
  fs::make_absolute(SourceDir);
  path::remove_filename(SourceDir);

  std::string Key = cacheKey(*Launcher, SourceDir);
  llvm::SmallString<256> Dir(Options.CacheRoot);
  path::append(Dir, Key);
  if (auto Cached = readCached(Dir, Key)) {
    if (Cached->Succeeded) {
      Cached->Usage = parseResourceUsage(Cached->Log, Kernel.Name);
      readSass(Dir, Kernel.Name, *Cached);
    }
    return Timed(std::move(*Cached));
  } else {
    llvm::consumeError(Cached.takeError());
  }

  if (std::error_code EC = fs::create_directories(Dir))
    return makeError(ErrorKind::BadInput,
                     "cannot create " + Dir + ": " + EC.message());
  llvm::SmallString<256> LauncherPath(Dir), Library(Dir);
  path::append(LauncherPath, "candidate.cu");
  path::append(Library, "candidate.so");
  if (llvm::Error E = writeOutputFile(LauncherPath, *Launcher))
    return E;
  // nvcc writes a library of its own, renamed into place once whole: two
  // searches sharing the cache (two GPUs, two projects) that build one
  // candidate at once never load the other's half-written library.
  llvm::SmallString<256> Partial;
  fs::createUniquePath(Library + ".tmp-%%%%%%", Partial,
                       /*MakeAbsolute=*/false);
  auto Run =
      runSubprocess(Options.Nvcc, nvccArgs(SourceDir, LauncherPath, Partial),
                    Options.TimeoutSeconds);
  if (Run && Run->succeeded() && fs::exists(Partial)) {
    if (std::error_code EC = fs::rename(Partial, Library))
      return makeError(ErrorKind::Internal, "cannot move the build to " +
                                                Library + ": " + EC.message());
  } else {
    fs::remove(Partial);
  }
  if (!Run)
    return Run.takeError();
  BuildResult R;
  R.Key = Key;
  R.Log = Run->Output;
  if (Run->TimedOut)
    R.Log += "\nnvcc timed out after " +
             std::to_string(Options.TimeoutSeconds) + " s";
  R.Succeeded = Run->succeeded() && fs::exists(Library);
  if (R.Succeeded) {
    R.Library = std::string(Library);
    R.Usage = parseResourceUsage(R.Log, Kernel.Name);
    readSass(Dir, Kernel.Name, R);
  }
  // nvcc killed by Ctrl-C failed for no fault of the source: not cached.
  if (!stopRequested())
    writeRecord(Dir, R);
  return Timed(std::move(R));
}

/// Writes \p Text to \p Path through a temporary file renamed over it, so
/// that two builds of one candidate never leave a half-written dump; a dump
/// that cannot be written is made again next time.
static void writeAtomically(llvm::StringRef Path, llvm::StringRef Text) {
  llvm::consumeError(writeOutputFile(Path, Text));
}

/// The dump is kept beside the library: a cached build costs a file read,
/// and a build made before cuobjdump was found gets its dump on next use.
/// Without cuobjdump, or when it fails, there is no dump and no error: the
/// SASS is evidence for the profiler and a shortcut for the search, never
/// a condition of a build.
std::optional<std::string> Builder::sassDump(llvm::StringRef Dir,
                                             llvm::StringRef Library) const {
  llvm::SmallString<256> DumpPath(Dir);
  path::append(DumpPath, "candidate.sass");
  if (auto Dump = llvm::MemoryBuffer::getFile(DumpPath))
    return (*Dump)->getBuffer().str();
  if (Options.Cuobjdump.empty() || !fs::can_execute(Options.Cuobjdump)) {
    LLVM_DEBUG(llvm::dbgs()
               << "no cuobjdump: no SASS mix for " << Library << "\n");
    return std::nullopt;
  }
  auto Run = runSubprocess(Options.Cuobjdump,
                           {Options.Cuobjdump, "-sass", Library.str()},
                           CuobjdumpTimeoutSeconds);
  if (!Run) {
    llvm::consumeError(Run.takeError());
    return std::nullopt;
  }
  if (!Run->succeeded())
    return std::nullopt;
  writeAtomically(DumpPath, Run->Output);
  return Run->Output;
}

void Builder::readSass(llvm::StringRef Dir, llvm::StringRef Kernel,
                       BuildResult &R) const {
  auto Dump = sassDump(Dir, R.Library);
  if (!Dump)
    return;
  R.Sass = parseSassMix(*Dump, Kernel);
  R.CodeHash = sassCodeHash(*Dump);
}

std::vector<llvm::Expected<BuildResult>>
Builder::buildAll(const std::vector<BuildRequest> &Requests,
                  unsigned Jobs) const {
  std::vector<std::optional<llvm::Expected<BuildResult>>> Slots(
      Requests.size());
  {
    llvm::StdThreadPool Pool(llvm::hardware_concurrency(std::max(1u, Jobs)));
    for (size_t I = 0; I < Requests.size(); ++I)
      Pool.async([&, I] {
        Slots[I].emplace(build(*Requests[I].Source, *Requests[I].Kernel));
      });
    Pool.wait();
  }
  std::vector<llvm::Expected<BuildResult>> Results;
  for (auto &S : Slots)
    Results.push_back(std::move(*S));
  return Results;
}
