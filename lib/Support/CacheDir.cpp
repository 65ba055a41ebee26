//===- CacheDir.cpp - where OptiML keeps builds and records --------------===//

#include "optiml/Support/CacheDir.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace optiml;

llvm::Expected<std::string> optiml::cacheDir(llvm::StringRef Sub) {
  llvm::SmallString<256> Dir;
  if (auto Env = llvm::sys::Process::GetEnv("OPTIML_CACHE_DIR")) {
    Dir = *Env;
  } else if (auto Xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME")) {
    Dir = *Xdg;
    llvm::sys::path::append(Dir, "optiml");
  } else if (llvm::sys::path::home_directory(Dir)) {
    llvm::sys::path::append(Dir, ".cache", "optiml");
  } else {
    return makeError(ErrorKind::BadInput,
                     "no cache folder: set OPTIML_CACHE_DIR or HOME");
  }
  if (!Sub.empty())
    llvm::sys::path::append(Dir, Sub);
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return makeError(ErrorKind::BadInput,
                     "cannot create cache folder " + Dir + ": " + EC.message());
  return std::string(Dir);
}
