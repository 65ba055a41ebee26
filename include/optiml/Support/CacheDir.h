//===- CacheDir.h - where OptiML keeps builds and records -----*- C++ -*-===//

#ifndef OPTIML_SUPPORT_CACHEDIR_H
#define OPTIML_SUPPORT_CACHEDIR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace optiml {

/// $OPTIML_CACHE_DIR, else $XDG_CACHE_HOME/optiml, else ~/.cache/optiml,
/// with \p Sub appended; created when missing.
llvm::Expected<std::string> cacheDir(llvm::StringRef Sub);

} // namespace optiml

#endif // OPTIML_SUPPORT_CACHEDIR_H
