//===- CachedResults.h - the results a compile can be told about -*- C++
//-*-===//
//
// The plugin reads results where the build integration keeps them: cache
// files moved from a GPU machine (--export-cache) and the search database.
// It only reads: the default database is opened only when it exists, and
// an unreadable source becomes a warning, not a failed compile.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PLUGIN_CACHEDRESULTS_H
#define OPTIML_PLUGIN_CACHEDRESULTS_H

#include "PluginOptions.h"

#include "driver/Cache/ResultCache.h"
#include "optiml/DB/Database.h"
#include "optiml/DB/Records.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

class CachedResults {
public:
  /// The sources \p Options names; what cannot be read is in problems().
  explicit CachedResults(const PluginOptions &Options);

  /// The result for \p Key's kernel and spec (any flags) to tell a compile
  /// for \p Arch about (empty when unknown): one for \p Arch first, then
  /// one made by this OptiML version, then the fastest.
  std::optional<ResultRecord> best(const CacheKey &Key, llvm::StringRef Arch);

  /// One line for each source that could not be read.
  const std::vector<std::string> &problems() const { return Problems; }

private:
  std::vector<ResultRecord> FromFiles;
  std::optional<Database> Db;
  std::vector<std::string> Problems;
};

} // namespace optiml

#endif // OPTIML_PLUGIN_CACHEDRESULTS_H
