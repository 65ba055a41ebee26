//===- ParamSpec.h - a parameter and its finite domain ----------*- C++ -*-===//
//
// Parameters have finite domains so that a search can enumerate them and a
// step can be validated before any parsing: `unroll(factor=3)` is refused
// by its spelling alone.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_PARAMSPEC_H
#define OPTIML_TRANSFORM_PARAMSPEC_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace optiml {

struct ParamSpec {
  std::string Name;
  std::vector<std::string> Domain; ///< Every admissible value, in order.
  std::string Default;             ///< One of Domain.
  std::string Help;

  /// An integer parameter: \p Values, defaulting to \p Default.
  static ParamSpec integers(std::string Name, llvm::ArrayRef<int64_t> Values,
                            int64_t Default, std::string Help);

  bool admits(llvm::StringRef Value) const;
  /// "{2, 4, 8, 16}".
  std::string domainText() const;
};

/// Values for some of a transform's parameters, in the order they were set.
class ParamValues {
public:
  void set(llvm::StringRef Name, llvm::StringRef Value);
  bool has(llvm::StringRef Name) const;
  /// The value of \p Name; empty when unset.
  llvm::StringRef get(llvm::StringRef Name) const;
  /// The value of \p Name as an integer (0 when unset or not a number).
  int64_t getInt(llvm::StringRef Name) const;
  const std::vector<std::pair<std::string, std::string>> &items() const {
    return Items;
  }

private:
  std::vector<std::pair<std::string, std::string>> Items;
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_PARAMSPEC_H
