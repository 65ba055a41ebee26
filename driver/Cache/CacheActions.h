//===- CacheActions.h - --use-cache and the cache files ---------*- C++ -*-===//
//
// The drop-in step a build runs (--use-cache: replay each marked kernel's
// cached result) and the moves of results between machines (cache files).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_CACHEACTIONS_H
#define OPTIML_DRIVER_CACHEACTIONS_H

#include "driver/Session/Driver.h"

#include <string>
#include <vector>

namespace optiml {

struct UseCacheOptions {
  std::string SpecPath; ///< Empty: the marks and <file>.optiml.json.
  std::string Arch;     ///< Empty: the GPU's own, else the parse default.
  std::vector<std::string> NvccFlags; ///< Part of the key.
  std::string DbPath;                 ///< Empty: Database::defaultPath().
  std::string ImportPath; ///< A cache file imported first; may be empty.
  std::string OutputPath; ///< Empty or "-": stdout; never the input.
};

class CacheActions : public Driver {
public:
  explicit CacheActions(const Driver &Session) : Driver(Session) {}

  /// The drop-in step: writes \p File with each marked kernel that has a
  /// cached result replaced by it (its steps replayed and checked) and
  /// every other byte as it was; one line per marked kernel on the error
  /// stream says hit or miss, and why. Misses are not errors.
  llvm::Error useCache(llvm::StringRef File, const UseCacheOptions &Options);
  /// Adds the results of the cache file \p Path to the database; a result
  /// never replaces a faster one of the same key.
  llvm::Error importCache(llvm::StringRef Path, llvm::StringRef DbPath);
  /// Writes every cached result of the database to \p Path.
  llvm::Error exportCache(llvm::StringRef Path, llvm::StringRef DbPath);
};

} // namespace optiml

#endif // OPTIML_DRIVER_CACHEACTIONS_H
