//===- ApiKey.h - a secret that never leaves the process -------*- C++ -*-===//
//
// The key to a model's endpoint is read from the environment once and
// removed from it, so no child process (nvcc, the runner) inherits it. It
// has no printing operator: the only way out is the request header, and
// redact() scrubs it from anything an endpoint echoes back.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_APIKEY_H
#define OPTIML_LLM_APIKEY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace optiml {

class ApiKey {
public:
  ApiKey() = default;

  /// The first of \p Variables that is set and not empty; every one of
  /// them is then unset, so that children do not see any.
  static ApiKey fromEnvironment(llvm::ArrayRef<const char *> Variables);

  bool empty() const { return Secret.empty(); }
  /// For the request header only.
  const std::string &reveal() const { return Secret; }
  /// \p Text with every occurrence of the key replaced by "[key]".
  std::string redact(llvm::StringRef Text) const;

private:
  explicit ApiKey(std::string Secret) : Secret(std::move(Secret)) {}

  std::string Secret;
};

} // namespace optiml

#endif // OPTIML_LLM_APIKEY_H
