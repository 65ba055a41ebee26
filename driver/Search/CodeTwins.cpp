//===- CodeTwins.cpp - candidates building the same code ------------------===//

#include "driver/Search/CodeTwins.h"

using namespace optiml;

std::string CodeTwins::keyOf(llvm::StringRef CodeHash,
                             llvm::StringRef SpecHash) {
  return (CodeHash + "/" + SpecHash).str();
}

std::optional<Measurement> CodeTwins::find(llvm::StringRef Key) const {
  std::lock_guard<std::mutex> Hold(Lock);
  auto It = Seen.find(Key);
  if (It == Seen.end())
    return std::nullopt;
  Measurement M = It->second.Result;
  M.Cached = true;
  M.TwinOf = It->second.Hash;
  M.Stages.clear();
  return M;
}

void CodeTwins::remember(llvm::StringRef Key, llvm::StringRef Hash,
                         const Measurement &M) {
  bool Evidence = M.Status == CandidateStatus::Ok ||
                  M.Status == CandidateStatus::VerifyFailed;
  if (!Evidence || M.Cached)
    return;
  std::lock_guard<std::mutex> Hold(Lock);
  Seen.try_emplace(Key, Entry{Hash.str(), M});
}
