//===- Failure.h - Verification failures as records -------------*- C++ -*-===//
//
// Part of OptiML. Each failure names where it happened (instance, seed, side,
// buffer, element) and what was expected (protocol::Failure), so the C++
// side can store it and an LLM or a person can act on it. Repeats are
// counted, not listed.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_FAILURE_H
#define OPTIML_RUNTIME_FAILURE_H

#include "Plan.h"

#include "optiml/Protocol/VerifyReport.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace optiml {

using protocol::Failure;

/// Sets \p F's buffer to \p A and its element to lane \p Lane, named as C
/// names it: a lane of a buffer of vectors or structs becomes its
/// element's index and its field. Red-zone positions outside the buffer
/// stay lanes.
void setElement(Failure &F, const Arg &A, std::optional<int64_t> Lane);

/// Keeps the first few failures of each (instance, seed, side, kind, buffer)
/// and counts the rest.
class FailureLog {
public:
  static constexpr size_t MaxPerKey = 5;
  static constexpr size_t MaxTotal = 200;

  void add(Failure F);
  bool empty() const { return Seen == 0; }
  size_t seen() const { return Seen; }
  /// The kept failures, the result's "verify.failures".
  const std::vector<Failure> &kept() const { return Kept; }

private:
  std::vector<Failure> Kept;
  std::map<std::string, size_t> PerKey;
  size_t Seen = 0;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_FAILURE_H
