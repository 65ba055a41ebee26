//===- CacheActions.cpp - --use-cache, --import-cache, --export-cache -----===//
//
// The results cache as a drop-in pre-compilation step: each marked kernel
// with a cached result is replaced by it, the rest of the file is left as
// it is. A result is used only by replaying its steps with the transforms
// (legality checked again on this file, launch sites rewritten with it) and
// getting exactly the definition that was measured; anything else is a
// miss, so a cache file cannot put code into a build that OptiML did not
// verify.
//
//===----------------------------------------------------------------------===//

#include "driver/Cache/CacheActions.h"
#include "driver/Cache/CacheFile.h"
#include "driver/Cache/ResultCache.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/DB/Database.h"
#include "optiml/Eval/GpuProbe.h"
#include "optiml/Rewrite/KernelDefinition.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Search/Trace.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/OutputPath.h"
#include "optiml/Support/Subprocess.h"
#include "optiml/Transform/StepRunner.h"
#include "transforms/RegisterTransforms.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace optiml;

//===----------------------------------------------------------------------===//
// The database and the cache file
//===----------------------------------------------------------------------===//

static llvm::Error importInto(Database &Db, llvm::StringRef Path,
                              llvm::raw_ostream &Log) {
  auto Records = readCacheFile(Path);
  if (!Records)
    return Records.takeError();
  unsigned Stored = 0;
  for (const ResultRecord &R : *Records) {
    auto Put = Db.putResult(R);
    if (!Put)
      return Put.takeError();
    Stored += *Put;
  }
  Log << "clang-optiml: imported " << Records->size() << " result(s) from "
      << Path << " (" << Stored << " new or faster)\n";
  return llvm::Error::success();
}

llvm::Error CacheActions::importCache(llvm::StringRef Path,
                                      llvm::StringRef DbPath) {
  auto Db = openDatabaseAt(DbPath);
  if (!Db)
    return Db.takeError();
  return importInto(*Db, Path, Err);
}

llvm::Error CacheActions::exportCache(llvm::StringRef Path,
                                      llvm::StringRef DbPath) {
  auto Db = openDatabaseAt(DbPath);
  if (!Db)
    return Db.takeError();
  auto Records = Db->results();
  if (!Records)
    return Records.takeError();
  if (llvm::Error E = writeCacheFile(Path, *Records))
    return E;
  Err << "clang-optiml: exported " << Records->size() << " result(s) to "
      << Path << "\n";
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Replaying a result
//===----------------------------------------------------------------------===//

namespace {

/// What ranks the matching results: this machine's GPU and toolkit.
struct LocalDevice {
  std::string Gpu;  ///< Empty without a GPU.
  std::string Arch; ///< --arch, else the GPU's, else the parse default.
  std::string Cuda; ///< Empty when nvcc does not answer.
};

/// A marked kernel and its key, or why it has none (its spec is wrong).
struct MarkedKernel {
  const KernelInfo *Kernel;
  std::optional<CacheKey> Key;
  std::string Why;
};

/// The bytes of \p Kernel's `#pragma optiml` mark in \p Parsed: a rewrite of
/// the launch geometry rewrites them.
std::string markText(ParsedSource &Parsed, llvm::StringRef Kernel) {
  auto Def = KernelDefinition::find(Parsed.context(), Kernel);
  if (!Def || !Def->MarkLine)
    return "";
  return Parsed.source().text().slice(*Def->MarkLine, Def->Begin).str();
}

} // namespace

static LocalDevice localDevice(const char *ToolPath, llvm::StringRef ArchOption,
                               const CudaToolchain &Toolchain) {
  LocalDevice D;
  if (auto Gpu = probeGpu(ToolPath)) {
    D.Gpu = Gpu->Name;
    D.Arch = Gpu->Arch;
  } else {
    llvm::consumeError(Gpu.takeError()); // A build machine has none.
  }
  if (!ArchOption.empty())
    D.Arch = ArchOption.str();
  else if (D.Arch.empty())
    D.Arch = Toolchain.GpuArch;
  std::string Nvcc = Toolchain.CudaPath + "/bin/nvcc";
  if (auto V = runSubprocess(Nvcc, {Nvcc, "--version"}, 60)) {
    if (V->succeeded())
      D.Cuda = cudaRelease(V->Output);
  } else {
    llvm::consumeError(V.takeError());
  }
  return D;
}

/// \p State with \p R's steps replayed on it, when they give exactly the
/// definition that was measured.
static llvm::Expected<std::unique_ptr<ParsedSource>>
replayResult(ParsedSource &State, const ResultRecord &R, const KernelInfo &K,
             const StepRunner &Runner) {
  auto Steps = parseTrace(R.Steps);
  if (!Steps)
    return Steps.takeError();
  if (Steps->empty())
    return makeError(ErrorKind::Internal, "no steps to replay");
  std::unique_ptr<ParsedSource> Owned;
  ParsedSource *Current = &State;
  for (const Step &S : *Steps) {
    auto Result = Runner.run(*Current, S);
    if (!Result)
      return makeError(ErrorKind::NotApplicable,
                       S.str() + ": " + llvm::toString(Result.takeError()));
    Owned = std::move(Result->Parsed);
    Current = Owned.get();
  }
  auto Text = kernelDefinitionText(*Owned, K.QualifiedName);
  if (!Text)
    return Text.takeError();
  if (*Text != R.ResultText)
    return makeError(ErrorKind::NotApplicable,
                     "replaying its steps gives another kernel than the one "
                     "measured (a result from another OptiML version?)");
  // Callers in other files are not rewritten by a drop-in step.
  if (K.Launches.empty() &&
      markText(*Owned, K.QualifiedName) != markText(State, K.QualifiedName))
    return makeError(ErrorKind::NotApplicable,
                     "it changes the launch configuration of a kernel that is "
                     "not launched in this file");
  return Owned;
}

static void reportHit(llvm::raw_ostream &Log, const ResultRecord &R) {
  Log << "clang-optiml: " << R.Kernel << ": cache hit: ";
  if (R.Steps.empty())
    Log << "the original is the fastest known";
  else
    Log << llvm::format("%.2fx", R.Speedup) << " by " << R.Steps;
  // Where the result comes from, as far as it says.
  std::vector<std::string> From;
  if (!R.Gpu.empty())
    From.push_back(R.Gpu);
  if (!R.Cuda.empty())
    From.push_back("CUDA " + R.Cuda);
  From.push_back("OptiML " + R.Tool);
  Log << " (" << llvm::join(From, ", ") << ")\n";
}

static void reportMiss(llvm::raw_ostream &Log, llvm::StringRef Kernel,
                       const llvm::Twine &Why) {
  Log << "clang-optiml: " << Kernel << ": cache miss: " << Why << "\n";
}

static std::string noResultReason(const CacheKey &Key) {
  std::string Why = "no result for kernel " + Key.KernelHash + " spec " +
                    Key.SpecHash + " on " + Key.Arch;
  if (!Key.Flags.empty())
    Why += " with flags '" + Key.Flags + "'";
  return Why;
}

//===----------------------------------------------------------------------===//
// --use-cache
//===----------------------------------------------------------------------===//

llvm::Error CacheActions::useCache(llvm::StringRef File,
                                   const UseCacheOptions &Options) {
  if (llvm::Error E = refuseOverwrite(File, Options.OutputPath))
    return E;
  if (llvm::Error E = checkOutputFile(Options.OutputPath, "-o"))
    return E;
  auto Db = openDatabaseAt(Options.DbPath);
  if (!Db)
    return Db.takeError();
  if (!Options.ImportPath.empty())
    if (llvm::Error E = importInto(*Db, Options.ImportPath, Err))
      return E;
  auto Source = KernelSource::fromFile(File);
  if (!Source)
    return Source.takeError();
  SourceParser Parser(DB, Toolchain);
  auto Original = Parser.parse(*Source);
  if (!Original)
    return Original.takeError();
  KernelInventory Inv = KernelFinder::find((*Original)->context());
  for (const std::string &W : Inv.Warnings)
    Err << W << "\n";
  LocalDevice Local = localDevice(ToolPath, Options.Arch, Toolchain);

  // Every key from the original text, before any kernel is replaced.
  std::vector<MarkedKernel> Keys;
  for (const KernelInfo &K : Inv.Kernels) {
    if (!K.Mark)
      continue;
    MarkedKernel &M = Keys.emplace_back(MarkedKernel{&K, std::nullopt, ""});
    auto Key = cacheKeyOf(**Original, K, File, Options.SpecPath, Local.Arch,
                          Options.NvccFlags);
    if (Key)
      M.Key = std::move(*Key);
    else
      M.Why = llvm::toString(Key.takeError());
  }
  if (Keys.empty())
    Err << "clang-optiml: " << File << ": no marked kernel; nothing to "
        << "replace\n";

  TransformRegistry Registry = makeTransformRegistry();
  StepRunner Runner(Registry, Parser);
  std::unique_ptr<ParsedSource> State = std::move(*Original);
  for (const auto &[K, Key, Why] : Keys) {
    if (!Key) {
      reportMiss(Err, K->QualifiedName, Why);
      continue;
    }
    auto Found = Db->resultsFor(Key->KernelHash, Key->SpecHash);
    if (!Found)
      return Found.takeError();
    const ResultRecord *R = chooseResult(*Found, *Key, Local.Gpu, Local.Cuda);
    if (!R) {
      reportMiss(Err, K->QualifiedName, noResultReason(*Key));
      continue;
    }
    if (R->Steps.empty()) {
      reportHit(Err, *R);
      continue;
    }
    auto Next = replayResult(*State, *R, *K, Runner);
    if (!Next) {
      reportMiss(Err, K->QualifiedName,
                 "the cached result does not apply: " +
                     llvm::toString(Next.takeError()));
      continue;
    }
    State = std::move(*Next);
    reportHit(Err, *R);
  }
  llvm::StringRef Text = State->source().text();
  if (Options.OutputPath.empty() || Options.OutputPath == "-") {
    Out << Text;
    return llvm::Error::success();
  }
  return writeOutputFile(Options.OutputPath, Text);
}
