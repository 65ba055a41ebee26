//===- CacheFile.h - the results cache as a JSON file ----------*- C++ -*-===//
//
// How results move between a GPU machine that found them and build machines
// that apply them (--export-cache / --import-cache, the CMake function's
// CACHE file). The format is documented in docs/CMake.md and versioned:
// a file of another version is refused with one line, never half-read.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_CACHEFILE_H
#define OPTIML_DRIVER_CACHEFILE_H

#include "optiml/DB/Records.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace optiml {

/// The value of the file's "format" key.
inline constexpr const char *CacheFileFormat = "optiml-results";
/// The version this OptiML writes and reads.
inline constexpr int CacheFileVersion = 1;

/// \p Records as the text of a cache file.
std::string cacheFileText(llvm::ArrayRef<ResultRecord> Records);

/// The records of a cache file's \p Text; \p Name (the file) starts every
/// error, which is BadInput: not JSON, another format or version, or an
/// entry with a missing or mistyped key, named by its place
/// ("results[2].speedup: expected a number").
llvm::Expected<std::vector<ResultRecord>> parseCacheFile(llvm::StringRef Text,
                                                         llvm::StringRef Name);

/// Reads and parses the cache file at \p Path.
llvm::Expected<std::vector<ResultRecord>> readCacheFile(llvm::StringRef Path);

/// Writes \p Records to \p Path.
llvm::Error writeCacheFile(llvm::StringRef Path,
                           llvm::ArrayRef<ResultRecord> Records);

} // namespace optiml

#endif // OPTIML_DRIVER_CACHEFILE_H
