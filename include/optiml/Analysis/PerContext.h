//===- PerContext.h - a value computed once per ASTContext ----*- C++ -*-===//
//
// Transforms ask about one kernel at a time (its mark, its launches), and
// the answer comes from a scan of the whole translation unit: in a file
// with thousands of kernels, scanning again for each is quadratic. A
// PerContext keeps the scan's result for as long as its ASTContext lives,
// and drops it when the context is destroyed (ASTContext::AddDeallocation),
// so that a later context at the same address never sees it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_PERCONTEXT_H
#define OPTIML_ANALYSIS_PERCONTEXT_H

#include "clang/AST/ASTContext.h"

#include <map>
#include <mutex>

namespace optiml {

template <typename T> class PerContext {
public:
  /// The value for \p Ctx, computed by \p Compute(Ctx) at the first call.
  /// Declare the PerContext itself as a leaked static (`*new PerContext`):
  /// contexts destroyed at exit still reach it.
  template <typename ComputeFn>
  const T &get(clang::ASTContext &Ctx, ComputeFn Compute) {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Values.find(&Ctx);
    if (It != Values.end())
      return It->second;
    It = Values.emplace(&Ctx, Compute(Ctx)).first;
    Ctx.AddDeallocation(&forget, new Key{this, &Ctx});
    return It->second;
  }

private:
  struct Key {
    PerContext *Owner;
    const clang::ASTContext *Ctx;
  };

  static void forget(void *P) {
    auto *K = static_cast<Key *>(P);
    {
      std::lock_guard<std::mutex> Guard(K->Owner->Lock);
      K->Owner->Values.erase(K->Ctx);
    }
    delete K;
  }

  std::mutex Lock;
  std::map<const clang::ASTContext *, T> Values;
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_PERCONTEXT_H
