//===- ResultCache.h - keys and choices of the results cache ---*- C++ -*-===//
//
// A cached result belongs to one kernel definition under one spec, built
// for one architecture with one set of nvcc flags: those must match for a
// build to use it. The GPU it was measured on, the CUDA release and the
// tool version are kept in the key too (several coexist) and rank the
// matches: a build prefers a result from its own GPU and toolkit but takes
// one from another, since what it uses is verified source, replayed and
// compared (docs/CMake.md).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_RESULTCACHE_H
#define OPTIML_DRIVER_RESULTCACHE_H

#include "optiml/DB/Database.h"
#include "optiml/IR/KernelInfo.h"
#include "optiml/Rewrite/ParsedSource.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Spec/KernelSpec.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace optiml {

/// What a build looks a result up by.
struct CacheKey {
  std::string Kernel;     ///< Qualified name, for messages.
  std::string KernelHash; ///< See kernelDefinitionText().
  std::string SpecHash;   ///< See specHash().
  std::string Arch;
  std::string Flags; ///< See flagsKey().
};

/// \p Kernel's definition in \p Parsed, from the line of its
/// `#pragma optiml` mark (when marked) to its closing brace: what a cached
/// result replaces, and what its key hashes.
llvm::Expected<std::string> kernelDefinitionText(ParsedSource &Parsed,
                                                 llvm::StringRef Kernel);
/// The same in any translation unit: \p Text is the main file's text,
/// read from \p Path.
llvm::Expected<std::string> kernelDefinitionText(clang::ASTContext &Ctx,
                                                 llvm::StringRef Text,
                                                 llvm::StringRef Path,
                                                 llvm::StringRef Kernel);

/// A hash of \p Spec instantiated for \p Kernel (sizes, arguments, launch,
/// tolerances, seeds: the problem a measurement solved).
llvm::Expected<std::string> specHash(const KernelSpec &Spec,
                                     const KernelInfo &Kernel);

/// The key of \p Kernel, marked in \p Parsed (read from \p File).
llvm::Expected<CacheKey>
cacheKeyOf(ParsedSource &Parsed, const KernelInfo &Kernel, llvm::StringRef File,
           llvm::StringRef SpecPath, llvm::StringRef Arch,
           llvm::ArrayRef<std::string> NvccFlags);
/// The same in any translation unit (the Clang plugin's compile), whose
/// main file \p File has the text \p Text.
llvm::Expected<CacheKey>
cacheKeyOf(clang::ASTContext &Ctx, llvm::StringRef Text,
           const KernelInfo &Kernel, llvm::StringRef File,
           llvm::StringRef SpecPath, llvm::StringRef Arch,
           llvm::ArrayRef<std::string> NvccFlags);

/// The nvcc flags as the key spells them: in order, space-separated.
std::string flagsKey(llvm::ArrayRef<std::string> NvccFlags);

/// OptiML's version ("0.1.0"): part of every key.
llvm::StringRef toolVersion();

/// "12.8" from nvcc's "Cuda compilation tools, release 12.8, V12.8.93";
/// the text as it is when it has no release number.
std::string cudaRelease(llvm::StringRef NvccRelease);

/// Of \p Found (results for \p Key's kernel and spec), the one a build
/// with \p Key uses: same architecture and flags, then preferring the GPU
/// \p Gpu, the CUDA release \p Cuda and this tool version, then the
/// fastest. Null when none applies.
const ResultRecord *chooseResult(llvm::ArrayRef<ResultRecord> Found,
                                 const CacheKey &Key, llvm::StringRef Gpu,
                                 llvm::StringRef Cuda);

/// Stores the best verified version of \p Kernel that --optimize found
/// (\p BestText, the whole file) as its cached result; \p Origin gives
/// the rest of the key and the value (Arch, Gpu, Cuda, Flags, Steps,
/// Speedup). A failure is a warning on \p Log: the search's output stands.
void recordCachedResult(Database &Db, const SourceParser &Parser,
                        const KernelSource &Original, const KernelInfo &Kernel,
                        llvm::StringRef SpecPath, const ResultRecord &Origin,
                        llvm::StringRef BestText, llvm::raw_ostream &Log);

} // namespace optiml

#endif // OPTIML_DRIVER_RESULTCACHE_H
