//===- FirstRefusal.h - the refusal that explains an empty plan -*- C++ -*-===//
//
// Some transforms act on every candidate in a kernel that is legal (each
// atomicAdd, each shared array) and need to explain themselves only when
// none is: then the first refusal met is the one worth reporting.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_FIRSTREFUSAL_H
#define OPTIML_ANALYSIS_LEGALITY_FIRSTREFUSAL_H

#include "llvm/Support/Error.h"

namespace optiml {

class FirstRefusal {
public:
  FirstRefusal() = default;
  FirstRefusal(const FirstRefusal &) = delete;
  FirstRefusal &operator=(const FirstRefusal &) = delete;
  ~FirstRefusal() { llvm::consumeError(std::move(First)); }

  /// Keeps \p E when it is the first refusal; drops it otherwise.
  void note(llvm::Error E) {
    if (!First)
      First = std::move(E);
    else
      llvm::consumeError(std::move(E));
  }

  /// The first refusal noted, or \p Otherwise when there was none.
  llvm::Error take(llvm::Error Otherwise) {
    if (First) {
      llvm::consumeError(std::move(Otherwise));
      return std::move(First);
    }
    return Otherwise;
  }

private:
  llvm::Error First = llvm::Error::success();
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_FIRSTREFUSAL_H
