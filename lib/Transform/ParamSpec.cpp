//===- ParamSpec.cpp - a transform parameter and its finite domain -------===//

#include "optiml/Transform/ParamSpec.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;

ParamSpec ParamSpec::integers(std::string Name, llvm::ArrayRef<int64_t> Values,
                              int64_t Default, std::string Help) {
  ParamSpec P;
  P.Name = std::move(Name);
  for (int64_t V : Values)
    P.Domain.push_back(std::to_string(V));
  P.Default = std::to_string(Default);
  P.Help = std::move(Help);
  return P;
}

bool ParamSpec::admits(llvm::StringRef Value) const {
  return llvm::is_contained(Domain, Value);
}

std::string ParamSpec::domainText() const {
  return "{" + llvm::join(Domain, ", ") + "}";
}

void ParamValues::set(llvm::StringRef Name, llvm::StringRef Value) {
  for (auto &[N, V] : Items)
    if (N == Name) {
      V = Value.str();
      return;
    }
  Items.emplace_back(Name.str(), Value.str());
}

bool ParamValues::has(llvm::StringRef Name) const {
  return llvm::any_of(Items, [&](const auto &I) { return I.first == Name; });
}

llvm::StringRef ParamValues::get(llvm::StringRef Name) const {
  for (const auto &[N, V] : Items)
    if (N == Name)
      return V;
  return "";
}

int64_t ParamValues::getInt(llvm::StringRef Name) const {
  int64_t V = 0;
  if (get(Name).getAsInteger(10, V))
    return 0;
  return V;
}
