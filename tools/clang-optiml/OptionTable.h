//===- OptionTable.h - which options go with which action -----*- C++ -*-===//
//
// One table says which actions read each option, and it is read twice: by
// the check that refuses an option the chosen action would ignore, and by
// --help, which shows each option under its action's heading and names the
// actions of an option that several read.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TOOLS_CLANGOPTIML_OPTIONTABLE_H
#define OPTIML_TOOLS_CLANGOPTIML_OPTIONTABLE_H

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <vector>

namespace optiml {

/// A heading of --help and the actions all of its options go with (empty
/// for headings whose options each name their own).
struct OptionGroup {
  llvm::cl::OptionCategory &Category;
  std::vector<llvm::StringRef> Actions;
};

class OptionTable {
public:
  struct Row {
    llvm::cl::Option &Opt;
    const OptionGroup &Group;
    /// The actions that read the option, by name (`optimize`); empty: the
    /// group's, or every action when the group names none.
    std::vector<llvm::StringRef> Actions = {};
    /// Whether the command line set it to something an action would read;
    /// unset: whenever it was given (--format=text is harmless anywhere).
    std::function<bool()> Matters = nullptr;
  };

  explicit OptionTable(std::vector<Row> Rows) : Rows(std::move(Rows)) {}

  /// BadInput naming the first option given on the command line that
  /// neither \p Action nor \p Also reads (Also: an action that runs along,
  /// --from-prompt under --optimize). An empty \p Action: none was chosen.
  llvm::Error check(llvm::StringRef Action, llvm::StringRef Also = "") const;

  /// For --help: every option of \p Parsed (the one category the parser
  /// knows) moves under its row's heading, or under \p Default without a
  /// row, and an option read by other actions than its heading's says
  /// which.
  void groupForHelp(llvm::cl::OptionCategory &Parsed,
                    llvm::cl::OptionCategory &Default) const;

  /// How the command line spells \p O: `-o`, `--budget`.
  static std::string flag(const llvm::cl::Option &O);

private:
  const Row *find(const llvm::cl::Option &O) const;
  static std::vector<llvm::StringRef> actionsOf(const Row &R);

  std::vector<Row> Rows;
};

} // namespace optiml

#endif // OPTIML_TOOLS_CLANGOPTIML_OPTIONTABLE_H
