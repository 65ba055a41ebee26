//===- JsonLocator.h - file positions inside a JSON document --*- C++ -*-===//
//
// nlohmann::json (3.11) keeps no positions, yet an error in a sidecar must
// point at the value that is wrong. The document has already been parsed,
// so it is valid JSON: this walks its text along a path of keys and array
// indices to find where a value starts.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_JSONLOCATOR_H
#define OPTIML_SPEC_JSONLOCATOR_H

#include "optiml/IR/KernelInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace optiml {

class JsonLocator {
public:
  /// \p Text must outlive the locator.
  JsonLocator(llvm::StringRef Text, llvm::StringRef File)
      : Text(Text), File(File.str()) {}

  /// Where the value at \p Path (object keys, and array indices in
  /// decimal) starts; where the deepest existing prefix starts when part of
  /// the path is missing.
  SourcePos valueAt(llvm::ArrayRef<std::string> Path) const;

  /// Where the key of the last element of \p Path is written (its opening
  /// quote); for an array element, the element itself.
  SourcePos keyAt(llvm::ArrayRef<std::string> Path) const;

  SourcePos at(size_t Offset) const;

private:
  struct Found {
    size_t Key = 0, Value = 0;
  };
  Found find(llvm::ArrayRef<std::string> Path) const;
  bool member(size_t &I, llvm::StringRef Key, size_t &KeyAt) const;
  bool element(size_t &I, llvm::StringRef Index) const;
  size_t skipSpace(size_t I) const;
  size_t skipString(size_t I) const;
  size_t skipValue(size_t I) const;

  llvm::StringRef Text;
  std::string File;
};

} // namespace optiml

#endif // OPTIML_SPEC_JSONLOCATOR_H
