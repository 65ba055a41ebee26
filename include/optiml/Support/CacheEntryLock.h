//===- CacheEntryLock.h - one builder per cached program -------*- C++ -*-===//
//
// Programs the tool builds for itself (the GPU runner, the GPU probe) live
// in the cache. Several tools may start at once (a parallel build of marked
// kernels): the first builds the program under this lock, the others wait
// for it and then find the program there.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SUPPORT_CACHEENTRYLOCK_H
#define OPTIML_SUPPORT_CACHEENTRYLOCK_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace optiml {

class CacheEntryLock {
public:
  /// Waits for, then holds, the lock file "<Entry>.lock" until destroyed.
  static llvm::Expected<CacheEntryLock> acquire(llvm::StringRef Entry);

private:
  CacheEntryLock(std::unique_ptr<llvm::raw_fd_ostream> File,
                 llvm::sys::fs::FileLocker Locker)
      : File(std::move(File)), Locker(std::move(Locker)) {}

  std::unique_ptr<llvm::raw_fd_ostream> File; ///< Outlives the lock.
  llvm::sys::fs::FileLocker Locker;
};

} // namespace optiml

#endif // OPTIML_SUPPORT_CACHEENTRYLOCK_H
