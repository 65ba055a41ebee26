//===- CachedResults.cpp - the results a compile can be told about -------===//

#include "CachedResults.h"

#include "driver/Cache/CacheFile.h"

#include "llvm/Support/FileSystem.h"

#include <tuple>

using namespace optiml;

CachedResults::CachedResults(const PluginOptions &Options) {
  for (const std::string &Path : Options.CacheFiles) {
    auto Records = readCacheFile(Path);
    if (!Records) {
      Problems.push_back(llvm::toString(Records.takeError()));
      continue;
    }
    FromFiles.insert(FromFiles.end(), Records->begin(), Records->end());
  }
  std::string Path = Options.DbPath;
  if (Path.empty()) {
    auto Default = Database::defaultPath();
    if (!Default) {
      llvm::consumeError(Default.takeError());
      return;
    }
    Path = *Default;
  }
  // Never create one: a compile has no business making the tool's files.
  if (!llvm::sys::fs::exists(Path)) {
    if (!Options.DbPath.empty())
      Problems.push_back("no results database at " + Path);
    return;
  }
  auto Opened = Database::open(Path);
  if (!Opened) {
    Problems.push_back("the results database " + Path + ": " +
                       llvm::toString(Opened.takeError()));
    return;
  }
  Db.emplace(std::move(*Opened));
}

std::optional<ResultRecord> CachedResults::best(const CacheKey &Key,
                                                llvm::StringRef Arch) {
  std::vector<ResultRecord> Found;
  for (const ResultRecord &R : FromFiles)
    if (R.KernelHash == Key.KernelHash && R.SpecHash == Key.SpecHash)
      Found.push_back(R);
  if (Db) {
    auto Stored = Db->resultsFor(Key.KernelHash, Key.SpecHash);
    if (Stored)
      Found.insert(Found.end(), Stored->begin(), Stored->end());
    else
      Problems.push_back(llvm::toString(Stored.takeError()));
  }
  // Larger is better, compared in order.
  auto Rank = [&](const ResultRecord &R) {
    return std::make_tuple(!Arch.empty() && R.Arch == Arch,
                           R.Tool == toolVersion(), R.Speedup);
  };
  std::optional<ResultRecord> Best;
  for (ResultRecord &R : Found)
    if (!Best || Rank(R) > Rank(*Best))
      Best = std::move(R);
  return Best;
}
