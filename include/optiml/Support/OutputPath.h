//===- OutputPath.h - never overwrite the user's input --------*- C++ -*-===//

#ifndef OPTIML_SUPPORT_OUTPUTPATH_H
#define OPTIML_SUPPORT_OUTPUTPATH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace optiml {

/// BadInput when \p Output names the same file as \p Input, however it is
/// spelled (`./x.cu`, a symbolic link, a hard link); an empty or "-" output
/// (stdout) is fine. \p Option names where the output came from.
llvm::Error refuseOverwrite(llvm::StringRef Input, llvm::StringRef Output,
                            llvm::StringRef Option = "-o");

/// Writes \p Text to \p Path through a temporary file renamed over it, so
/// that a run killed halfway leaves the old file or the new one, never half
/// of one. A folder that cannot be written is BadInput naming the path.
llvm::Error writeOutputFile(llvm::StringRef Path, llvm::StringRef Text);

/// BadInput, before any work is done, when no file can be written at
/// \p Path: it is a folder, its folder is missing or is not a folder, or
/// nothing can be created there (permissions, a read-only file system).
/// \p Option names where the path came from (`-o`); an empty or "-" path
/// (stdout) is fine.
llvm::Error checkOutputFile(llvm::StringRef Path, llvm::StringRef Option);

/// The same for a folder that is created when missing: it is not a file,
/// and its nearest existing ancestor is a folder that can be written.
llvm::Error checkOutputFolder(llvm::StringRef Path, llvm::StringRef Option);

} // namespace optiml

#endif // OPTIML_SUPPORT_OUTPUTPATH_H
