//===- KernelSource.h - an immutable CUDA translation unit ----*- C++ -*-===//
//
// Sources are values: a rewrite produces a new KernelSource instead of
// editing one in place, and the content hash names it in caches and in the
// database.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_IR_KERNELSOURCE_H
#define OPTIML_IR_KERNELSOURCE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace optiml {

class KernelSource {
public:
  KernelSource(std::string Path, std::string Text);

  /// Reads \p Path; a missing or unreadable file is a BadInput error.
  static llvm::Expected<KernelSource> fromFile(llvm::StringRef Path);

  llvm::StringRef path() const { return Path; }
  llvm::StringRef text() const { return Text; }
  /// Hex SHA-256 of the text: equal texts share one hash, whatever the path.
  llvm::StringRef hash() const { return Hash; }

private:
  std::string Path;
  std::string Text;
  std::string Hash;
};

} // namespace optiml

#endif // OPTIML_IR_KERNELSOURCE_H
