//===- CacheFlags.cpp - the options of the results cache -----------------===//
//
// --use-cache rewrites a source; --import-cache and --export-cache move
// the database's results to and from a cache file, with no source needed
// (docs/CMake.md).
//
//===----------------------------------------------------------------------===//

#include "Flags.h"

using namespace optiml;
using namespace llvm;

static cl::opt<std::string>
    ImportCache("import-cache",
                cl::desc("Add the results of a cache file to the database "
                         "(first, before --use-cache; no source needed)"),
                cl::value_desc("file.json"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    ExportCache("export-cache",
                cl::desc("Write every cached result of the database to a "
                         "cache file (last; no source needed)"),
                cl::value_desc("file.json"), cl::cat(optimlCategory()));

CacheFileFlags optiml::cacheFileFlags() { return {ImportCache, ExportCache}; }

UseCacheOptions optiml::useCacheOptions(const TargetFlags &T) {
  UseCacheOptions O;
  O.SpecPath = T.SpecPath;
  O.Arch = T.Arch;
  O.NvccFlags = T.NvccFlags;
  O.DbPath = T.DbPath;
  O.ImportPath = ImportCache;
  O.OutputPath = T.Output;
  return O;
}

std::vector<OptionTable::Row> optiml::cacheRows() {
  return {{ImportCache, actionsGroup()}, {ExportCache, actionsGroup()}};
}
