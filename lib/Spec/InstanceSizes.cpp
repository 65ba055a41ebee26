//===- InstanceSizes.cpp - the sizes of one problem instance -------------===//

#include "optiml/Spec/InstanceSizes.h"
#include "optiml/Spec/SpecDiagnostic.h"
#include "optiml/Spec/SpecExprEvaluator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;

static const SpecExpr *overrideOf(const InstanceSpec *Instance,
                                  const std::string &Size) {
  if (!Instance)
    return nullptr;
  for (const auto &[Name, Expr] : Instance->Sizes)
    if (Name == Size)
      return &Expr;
  return nullptr;
}

llvm::Expected<std::map<std::string, int64_t>> optiml::instanceSizes(
    const std::vector<std::pair<std::string, SpecExpr>> &Defaults,
    const InstanceSpec *Instance) {
  std::vector<std::string> Names;
  for (const auto &Size : Defaults)
    Names.push_back(Size.first);
  if (Instance)
    for (const auto &[Name, Expr] : Instance->Sizes)
      if (!llvm::is_contained(Names, Name))
        return specError(Expr.Pos,
                         "unknown size '" + Name + "' in instance '" +
                             Instance->Name + "'",
                         "one of the sizes " + llvm::join(Names, ", "));
  std::map<std::string, int64_t> Sizes;
  for (const auto &[Name, Default] : Defaults) {
    const SpecExpr *Over = overrideOf(Instance, Name);
    auto V = SpecExprEvaluator(Sizes).evaluateInteger(Over ? *Over : Default,
                                                      "size '" + Name + "'");
    if (!V)
      return Instance ? withContext(V.takeError(),
                                    " in instance '" + Instance->Name + "'")
                      : V.takeError();
    Sizes[Name] = *V;
  }
  return Sizes;
}
