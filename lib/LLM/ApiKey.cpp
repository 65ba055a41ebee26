//===- ApiKey.cpp - a secret that never leaves the process ---------------===//

#include "optiml/LLM/ApiKey.h"

#include <cstdlib>

using namespace optiml;

ApiKey ApiKey::fromEnvironment(llvm::ArrayRef<const char *> Variables) {
  std::string Found;
  for (const char *Name : Variables) {
    const char *Value = std::getenv(Name);
    if (Found.empty() && Value && *Value)
      Found = Value;
  }
  for (const char *Name : Variables)
    ::unsetenv(Name);
  return ApiKey(std::move(Found));
}

std::string ApiKey::redact(llvm::StringRef Text) const {
  if (Secret.empty())
    return Text.str();
  std::string Out;
  while (true) {
    size_t At = Text.find(Secret);
    Out += Text.take_front(At).str();
    if (At == llvm::StringRef::npos)
      return Out;
    Out += "[key]";
    Text = Text.drop_front(At + Secret.size());
  }
}
