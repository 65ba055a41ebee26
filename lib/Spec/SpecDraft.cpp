//===- SpecDraft.cpp - a kernel spec as written, before checking ---------===//

#include "optiml/Spec/SpecDraft.h"

using namespace optiml;

ArgDraft *SpecDraft::findArg(llvm::StringRef Name) {
  for (ArgDraft &A : Args)
    if (A.Name == Name)
      return &A;
  return nullptr;
}

/// Replaces the item named like \p Item in \p Items, or appends it.
template <typename T, typename NameOf>
static void replaceOrAppend(std::vector<T> &Items, const T &Item, NameOf Name) {
  for (T &Old : Items)
    if (Name(Old) == Name(Item)) {
      Old = Item;
      return;
    }
  Items.push_back(Item);
}

template <typename T>
static void overrideField(std::optional<T> &Field,
                          const std::optional<T> &Over) {
  if (Over)
    Field = Over;
}

/// A new role drops what does not apply to it (a buffer's length when the
/// argument becomes a scalar, a distribution when it becomes an output), so
/// that a stale field from the mark cannot make the merged spec invalid.
static void overrideArg(ArgDraft &Arg, const ArgDraft &Over) {
  if (Over.Role) {
    Arg.Null = Over.Null;
    Arg.Symbol = Over.Symbol;
    Arg.AliasOf = Over.AliasOf;
  }
  if (Over.Role && Over.Role != Arg.Role) {
    Arg.Role = Over.Role;
    Arg.Pos = Over.Pos;
    if (*Arg.Role == ArgRole::Scalar)
      Arg.Length.reset();
    else
      Arg.Value.reset();
    if (*Arg.Role == ArgRole::Scalar || *Arg.Role == ArgRole::Out) {
      Arg.Dist.reset();
      Arg.FieldDists.clear();
    }
  }
  overrideField(Arg.Length, Over.Length);
  overrideField(Arg.Value, Over.Value);
  overrideField(Arg.Dist, Over.Dist);
  for (const auto &Field : Over.FieldDists)
    replaceOrAppend(Arg.FieldDists, Field,
                    [](const auto &F) { return F.first; });
}

void SpecDraft::overrideWith(const SpecDraft &Sidecar) {
  for (const auto &Size : Sidecar.Sizes)
    replaceOrAppend(Sizes, Size, [](const auto &S) { return S.first; });
  for (const auto &Arg : Sidecar.TemplateArgs)
    replaceOrAppend(TemplateArgs, Arg, [](const auto &S) { return S.first; });
  for (const ArgDraft &Over : Sidecar.Args) {
    if (ArgDraft *Arg = findArg(Over.Name))
      overrideArg(*Arg, Over);
    else
      Args.push_back(Over);
  }
  overrideField(Grid, Sidecar.Grid);
  overrideField(Block, Sidecar.Block);
  overrideField(SharedMemory, Sidecar.SharedMemory);
  overrideField(RTol, Sidecar.RTol);
  overrideField(ATol, Sidecar.ATol);
  overrideField(NormTol, Sidecar.NormTol);
  overrideField(Seeds, Sidecar.Seeds);
  for (const InstanceSpec &I : Sidecar.Instances)
    replaceOrAppend(Instances, I, [](const InstanceSpec &S) { return S.Name; });
}
