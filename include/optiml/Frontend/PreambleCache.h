//===- PreambleCache.h - parse a file's #includes once ----------*- C++ -*-===//
//
// A search parses the same file over and over: every rewrite is re-parsed to
// validate it, and the CUDA headers a kernel file includes are nearly all of
// the work (about half a second; the kernels themselves take milliseconds).
// The cache keeps a precompiled preamble (Clang's PrecompiledPreamble, as
// clangd uses) of a file's leading #include lines, per file and compile
// command, built the third time the file is parsed and reused while the
// includes, the headers on disk and the command stay the same.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_FRONTEND_PREAMBLECACHE_H
#define OPTIML_FRONTEND_PREAMBLECACHE_H

#include "clang/Frontend/PrecompiledPreamble.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <mutex>
#include <vector>

namespace clang {
class CompilerInvocation;
class DiagnosticsEngine;
class PCHContainerOperations;
} // namespace clang

namespace optiml {

class PreambleCache {
public:
  /// The process's cache: the parses of one run share it.
  static PreambleCache &process();

  /// A preamble \p Invocation can use for \p Main (its main file's text),
  /// or null: on the first two parses of a file and command, when the file has
  /// no #include to precompile, or when building one reported an error (the
  /// plain parse then reports it as the compiler would). A preamble handed
  /// out stays alive until the process ends, because ASTs built with it
  /// read their header declarations from it.
  const clang::PrecompiledPreamble *
  preambleFor(const clang::CompilerInvocation &Invocation,
              const llvm::MemoryBuffer &Main,
              llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
              std::shared_ptr<clang::PCHContainerOperations> PCHOps);

  /// The part of \p Main the preamble covers: the leading preprocessor
  /// lines up to the end of the last #include among them, so that a rewrite
  /// of a mark or a macro after the includes keeps the preamble valid.
  static clang::PreambleBounds boundsOf(const clang::LangOptions &LangOpts,
                                        const llvm::MemoryBuffer &Main);

private:
  struct Entry {
    unsigned Parses = 0;
    const clang::PrecompiledPreamble *Current = nullptr;
  };
  std::mutex Lock;
  llvm::StringMap<Entry> Entries; ///< By file and command line.
  std::vector<std::unique_ptr<clang::PrecompiledPreamble>> Built;
};

} // namespace optiml

#endif // OPTIML_FRONTEND_PREAMBLECACHE_H
