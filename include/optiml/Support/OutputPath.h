//===- OutputPath.h - never overwrite the user's input --------*- C++ -*-===//

#ifndef OPTIML_SUPPORT_OUTPUTPATH_H
#define OPTIML_SUPPORT_OUTPUTPATH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace optiml {

/// BadInput when \p Output names the same file as \p Input, however it is
/// spelled (`./x.cu`, a symbolic link, a hard link); an empty or "-" output
/// (stdout) is fine.
llvm::Error refuseOverwrite(llvm::StringRef Input, llvm::StringRef Output);

/// Writes \p Text to \p Path through a temporary file renamed over it, so
/// that a run killed halfway leaves the old file or the new one, never half
/// of one. A folder that cannot be written is BadInput naming the path.
llvm::Error writeOutputFile(llvm::StringRef Path, llvm::StringRef Text);

} // namespace optiml

#endif // OPTIML_SUPPORT_OUTPUTPATH_H
