//===- Builder.h - candidates to shared objects with nvcc -----*- C++ -*-===//
//
// Each candidate becomes a shared object with the launcher ABI, compiled by
// nvcc. Builds are cached by a key over the launcher text, the flags and
// nvcc's version: the same candidate is never compiled twice, and a failed
// build is remembered with its log and never retried.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_BUILDER_H
#define OPTIML_EVAL_BUILDER_H

#include "optiml/Eval/ResourceUsage.h"
#include "optiml/Eval/SassMix.h"
#include "optiml/IR/KernelInfo.h"
#include "optiml/IR/KernelSource.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

struct BuildOptions {
  std::string Nvcc; ///< Empty: $CUDA_PATH/bin, then $PATH.
  /// Empty: beside nvcc, then $PATH. Where none runs, builds carry no SASS
  /// mix; nothing else changes.
  std::string Cuobjdump;
  std::string Arch = "sm_90";          ///< Device architecture.
  std::vector<std::string> ExtraFlags; ///< The user's flags (-I, -D, ...).
  std::string CacheRoot;               ///< Empty: the user's cache folder.
  unsigned TimeoutSeconds = 600;
};

struct BuildResult {
  bool Succeeded = false;
  bool Cached = false; ///< Taken from the cache, not compiled now.
  std::string Key;     ///< Cache key (hex).
  std::string Library; ///< Path of the shared object when Succeeded.
  std::string Log;     ///< nvcc's output.
  std::optional<ResourceUsage> Usage;
  /// The kernel's instruction mix (`cuobjdump -sass`), when cuobjdump runs.
  std::optional<SassMix> Sass;
  /// A hash of the library's whole SASS, when cuobjdump runs: two builds
  /// with the same one run the same machine code (line tables and constant
  /// data aside, which no transform changes without changing code).
  std::optional<std::string> CodeHash;
  /// Wall seconds this build took here (a cache hit: the lookup's).
  double Seconds = 0;
};

struct BuildRequest {
  const KernelSource *Source;
  const KernelInfo *Kernel;
};

class Builder {
public:
  /// Finds nvcc and reads its version (part of every cache key).
  static llvm::Expected<Builder> create(BuildOptions Options);

  /// Builds one candidate. A compile error is a result with Succeeded
  /// false; only a tool failure (no nvcc, no cache folder) is an error.
  llvm::Expected<BuildResult> build(const KernelSource &Source,
                                    const KernelInfo &Kernel) const;

  /// Builds several candidates with up to \p Jobs nvcc processes at once;
  /// results are in request order.
  std::vector<llvm::Expected<BuildResult>>
  buildAll(const std::vector<BuildRequest> &Requests, unsigned Jobs) const;

  const BuildOptions &options() const { return Options; }
  /// nvcc's release line ("Cuda compilation tools, release 13.0, V13.0.48"),
  /// or its whole `--version` output when it has none: measurements made
  /// with another compiler are another problem.
  std::string nvccRelease() const;

private:
  Builder(BuildOptions Options, std::string NvccVersion)
      : Options(std::move(Options)), NvccVersion(std::move(NvccVersion)) {}

  std::vector<std::string> nvccArgs(llvm::StringRef SourceDir,
                                    llvm::StringRef Launcher,
                                    llvm::StringRef Library) const;
  std::string cacheKey(llvm::StringRef Launcher,
                       llvm::StringRef SourceDir) const;
  /// The library's `cuobjdump -sass` text, kept in \p Dir.
  std::optional<std::string> sassDump(llvm::StringRef Dir,
                                      llvm::StringRef Library) const;
  /// Fills \p R's instruction mix and code hash from its SASS.
  void readSass(llvm::StringRef Dir, llvm::StringRef Kernel,
                BuildResult &R) const;

  BuildOptions Options;
  std::string NvccVersion;
};

/// The nvcc of $CUDA_PATH, else $PATH's, else /usr/local/cuda's; empty when
/// there is none.
std::string findNvcc();

} // namespace optiml

#endif // OPTIML_EVAL_BUILDER_H
