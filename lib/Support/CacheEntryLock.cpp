//===- CacheEntryLock.cpp - one builder per cached program ---------------===//

#include "optiml/Support/CacheEntryLock.h"
#include "optiml/Support/Error.h"

using namespace optiml;

llvm::Expected<CacheEntryLock> CacheEntryLock::acquire(llvm::StringRef Entry) {
  std::string Path = (Entry + ".lock").str();
  std::error_code EC;
  auto File = std::make_unique<llvm::raw_fd_ostream>(Path, EC,
                                                     llvm::sys::fs::OF_Append);
  if (EC)
    return makeError(ErrorKind::BadInput,
                     "cannot open " + Path + ": " + EC.message());
  auto Locker = File->lock();
  if (!Locker)
    return Locker.takeError();
  return CacheEntryLock(std::move(File), std::move(*Locker));
}
