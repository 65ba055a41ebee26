//===- OptionTable.cpp - which options go with which action --------------===//

#include "OptionTable.h"

#include "optiml/Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/StringSaver.h"

using namespace optiml;
using namespace llvm;

std::vector<StringRef> OptionTable::actionsOf(const Row &R) {
  return R.Actions.empty() ? R.Group.Actions : R.Actions;
}

/// "--a", "--a and --b", "--a, --b and --c".
static std::string listed(ArrayRef<StringRef> Actions) {
  std::vector<std::string> Flags;
  for (StringRef A : Actions)
    Flags.push_back(("--" + A).str());
  if (Flags.size() < 2)
    return join(Flags, "");
  std::string Last = Flags.back();
  Flags.pop_back();
  return join(Flags, ", ") + " and " + Last;
}

std::string OptionTable::flag(const cl::Option &O) {
  return (O.ArgStr.size() == 1 ? "-" : "--") + O.ArgStr.str();
}

Error OptionTable::check(StringRef Action, StringRef Also) const {
  for (const Row &R : Rows) {
    std::vector<StringRef> Actions = actionsOf(R);
    if (Actions.empty() || !R.Opt.getNumOccurrences() ||
        (R.Matters && !R.Matters()))
      continue;
    if (is_contained(Actions, Action) ||
        (!Also.empty() && is_contained(Actions, Also)))
      continue;
    return makeError(ErrorKind::BadInput,
                     flag(R.Opt) + " applies to " + listed(Actions) +
                         (Action.empty() ? ", and no action was given"
                                         : ", not to --" + Action.str()));
  }
  return Error::success();
}

const OptionTable::Row *OptionTable::find(const cl::Option &O) const {
  for (const Row &R : Rows)
    if (&R.Opt == &O)
      return &R;
  return nullptr;
}

void OptionTable::groupForHelp(cl::OptionCategory &Parsed,
                               cl::OptionCategory &Default) const {
  // Descriptions are StringRefs: the longer ones live as long as the help.
  static BumpPtrAllocator Memory;
  static StringSaver Saved(Memory);
  for (auto &Entry : cl::getRegisteredOptions()) {
    cl::Option *O = Entry.second;
    auto At = llvm::find(O->Categories, &Parsed);
    if (At == O->Categories.end())
      continue;
    const Row *R = find(*O);
    *At = R ? &R->Group.Category : &Default;
    if (!R || R->Actions.empty() || R->Actions == R->Group.Actions)
      continue;
    O->setDescription(Saved.save(O->HelpStr + " [" + listed(R->Actions) + "]"));
  }
}
