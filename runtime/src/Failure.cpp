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
                    sideName(F.S) + '\0' + F.Kind + '\0' + F.Buffer;
  if (++PerKey[Key] > MaxPerKey || Kept.size() >= MaxTotal)
    return;
  Kept.push_back(std::move(F));
}

Json FailureLog::toJson() const {
  Json Out = Json::array();
  for (const Failure &F : Kept) {
    Json J;
    J["instance"] = F.Instance;
    J["seed"] = F.Seed;
    J["side"] = sideName(F.S);
    J["kind"] = F.Kind;
    J["buffer"] = F.Buffer.empty() ? Json() : Json(F.Buffer);
    J["index"] = F.Index < 0 ? Json() : Json(F.Index);
    J["expected"] = F.Expected;
    J["got"] = F.Got;
    J["message"] = F.Message;
    Out.push_back(std::move(J));
  }
  return Out;
}

} // namespace optiml
