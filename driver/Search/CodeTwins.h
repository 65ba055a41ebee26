//===- CodeTwins.h - candidates building the same code ----------*- C++ -*-===//
//
// Many moves change the source and not the machine code: `#pragma unroll 8`
// on a short loop nvcc unrolls anyway, `restrict` where the compiler already
// proved no aliasing, a hoist the compiler's own LICM did. Measuring such a
// candidate measures an earlier one again: the same code launched the same
// way (the same spec: sizes, launch, arguments) is the same kernel. The
// table answers it with the earlier measurement, marked as such, so the GPU
// measures only code it has not seen. A build without a SASS dump (no
// cuobjdump) has no key, and is always measured.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_CODETWINS_H
#define OPTIML_DRIVER_CODETWINS_H

#include "optiml/Search/Measurement.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <mutex>
#include <optional>
#include <string>

namespace optiml {

class CodeTwins {
public:
  /// The key of a build whose SASS hashes to \p CodeHash, launched under
  /// the spec whose hash is \p SpecHash.
  static std::string keyOf(llvm::StringRef CodeHash, llvm::StringRef SpecHash);

  /// The measurement of an earlier candidate with \p Key, as this one's:
  /// Cached, TwinOf naming it, its stage times dropped; nothing when none
  /// was measured. Safe to call from several threads.
  std::optional<Measurement> find(llvm::StringRef Key) const;

  /// Remembers \p M, the measurement of the candidate \p Hash with \p Key,
  /// when it says something of the code: it ran and was verified or
  /// rejected. A tool failure, a crash or a timeout may be the machine's,
  /// and an answer from elsewhere is no new evidence.
  void remember(llvm::StringRef Key, llvm::StringRef Hash,
                const Measurement &M);

private:
  struct Entry {
    std::string Hash;
    Measurement Result;
  };
  mutable std::mutex Lock;
  llvm::StringMap<Entry> Seen;
};

} // namespace optiml

#endif // OPTIML_DRIVER_CODETWINS_H
