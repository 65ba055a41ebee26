//===- MarkClause.cpp - one clause of a kernel's optiml mark -------------===//

#include "optiml/Analysis/Legality/MarkClause.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;

/// Whether \p Name starts a word at \p At of \p Text.
static bool startsWord(llvm::StringRef Text, size_t At) {
  return At == 0 || !(llvm::isAlnum(Text[At - 1]) || Text[At - 1] == '_');
}

std::optional<std::vector<std::string>>
optiml::markClauseArgs(llvm::StringRef Clauses, llvm::StringRef Name) {
  for (size_t At = Clauses.find(Name); At != llvm::StringRef::npos;
       At = Clauses.find(Name, At + 1)) {
    llvm::StringRef Rest = Clauses.substr(At + Name.size()).ltrim(" \t");
    if (!startsWord(Clauses, At) || !Rest.consume_front("("))
      continue;
    std::vector<std::string> Args;
    int Depth = 1;
    size_t Start = 0;
    for (size_t I = 0; I < Rest.size(); ++I) {
      char C = Rest[I];
      Depth += C == '(' ? 1 : C == ')' ? -1 : 0;
      if ((C == ',' && Depth == 1) || Depth == 0) {
        Args.push_back(Rest.slice(Start, I).trim(" \t\\\r\n").str());
        Start = I + 1;
      }
      if (Depth == 0)
        return Args;
    }
    return std::nullopt;
  }
  return std::nullopt;
}
