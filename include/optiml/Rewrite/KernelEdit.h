//===- KernelEdit.h - a new kernel definition, as edits --------*- C++ -*-===//
//
// A free-form edit (a model's answer, a user's snippet) is a new version of
// one kernel, possibly with new `__device__` helpers before it. It is
// applied as an EditSet confined to the kernel: the kernel's definition is
// replaced, the helpers are inserted right before the definition (before
// its `#pragma optiml` mark, which must stay attached to the kernel), and
// every other byte of the file is kept. Whether the result is acceptable is
// KernelEditChecker's question, not this one's.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_KERNELEDIT_H
#define OPTIML_REWRITE_KERNELEDIT_H

#include "optiml/Rewrite/ParsedSource.h"

#include "llvm/Support/Error.h"

#include <string>

namespace optiml {

class KernelEdit {
public:
  /// Splits \p Code into what precedes the definition of the kernel named
  /// \p Kernel (its unqualified name), the definition, and what follows.
  /// Code that defines no such kernel is an Illegal error saying so.
  static llvm::Expected<KernelEdit> fromCode(llvm::StringRef Code,
                                             llvm::StringRef Kernel);

  /// \p Original with this edit applied to the definition of \p Kernel
  /// (qualified name); the result keeps the original's path.
  llvm::Expected<KernelSource> applyTo(ParsedSource &Original,
                                       llvm::StringRef Kernel) const;

  llvm::StringRef before() const { return Before; }
  llvm::StringRef definition() const { return Definition; }
  llvm::StringRef after() const { return After; }

private:
  KernelEdit(std::string Before, std::string Definition, std::string After)
      : Before(std::move(Before)), Definition(std::move(Definition)),
        After(std::move(After)) {}

  std::string Before;     ///< Helpers (and whatever else came first).
  std::string Definition; ///< The kernel, `template <...>` included.
  std::string After;      ///< Whatever followed it; kept, to be judged.
};

} // namespace optiml

#endif // OPTIML_REWRITE_KERNELEDIT_H
