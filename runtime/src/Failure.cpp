//===- Failure.cpp - Verification failures as records ---------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Failure.h"

namespace optiml {

void FailureLog::add(Failure F) {
  ++Seen;
  std::string Key = F.Instance + '\0' + std::to_string(F.Seed) + '\0' +
                    protocol::sideName(F.Where) + '\0' + F.Kind + '\0' +
                    F.Buffer.value_or("");
  if (++PerKey[Key] > MaxPerKey || Kept.size() >= MaxTotal)
    return;
  Kept.push_back(std::move(F));
}

} // namespace optiml
