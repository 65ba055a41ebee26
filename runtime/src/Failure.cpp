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

void setElement(Failure &F, const Arg &A, std::optional<int64_t> Lane) {
  F.Buffer = A.Name;
  F.Index = Lane;
  F.Field.reset();
  if (!Lane || A.Fields.empty() || *Lane < 0 || uint64_t(*Lane) >= A.Count)
    return;
  F.Index = *Lane / int64_t(A.Fields.size());
  F.Field = A.Fields[uint64_t(*Lane) % A.Fields.size()].Name;
}

} // namespace optiml
