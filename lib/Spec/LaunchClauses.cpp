//===- LaunchClauses.cpp - one spec, several launch geometries -----------===//

#include "optiml/Spec/LaunchClauses.h"
#include "optiml/Spec/SpecDiagnostic.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/StringExtras.h"

#include <vector>

using namespace optiml;

namespace {

/// `name(body)` at the top level of a mark, or a bare word (`kernel`).
struct Clause {
  std::string Name;
  std::string Text; ///< As written, parentheses included.
};

/// Clauses come from a model's answer, over several lines as often as not;
/// the error quoting them is one line all the same.
llvm::Error launchError(const llvm::Twine &Message) {
  return makeError(ErrorKind::BadInput, oneLine(Message.str()));
}

llvm::Expected<std::vector<Clause>> splitClauses(llvm::StringRef Text) {
  std::vector<Clause> Out;
  size_t I = 0;
  while (true) {
    I = Text.find_first_not_of(" \t\r\n\\", I);
    if (I == llvm::StringRef::npos)
      return Out;
    size_t NameEnd = I;
    while (NameEnd < Text.size() &&
           (llvm::isAlnum(Text[NameEnd]) || Text[NameEnd] == '_'))
      ++NameEnd;
    if (NameEnd == I)
      return launchError("unexpected '" + Text.substr(I, 1) + "' in '" + Text +
                         "'; expected a clause such as grid(...)");
    size_t Open = Text.find_first_not_of(" \t", NameEnd);
    if (Open == llvm::StringRef::npos || Text[Open] != '(') {
      Out.push_back(
          {Text.slice(I, NameEnd).str(), Text.slice(I, NameEnd).str()});
      I = NameEnd;
      continue;
    }
    int Depth = 0;
    size_t End = Open;
    for (; End < Text.size(); ++End) {
      Depth += Text[End] == '(' ? 1 : Text[End] == ')' ? -1 : 0;
      if (Depth == 0)
        break;
    }
    if (End == Text.size())
      return launchError("unbalanced parenthesis in '" + Text.slice(I, End) +
                         "'; expected ')'");
    Out.push_back({Text.slice(I, NameEnd).str(), Text.slice(I, End + 1).str()});
    I = End + 1;
  }
}

bool isLaunch(llvm::StringRef Name) {
  return Name == "grid" || Name == "block" || Name == "shmem";
}

} // namespace

llvm::Expected<std::string> optiml::withLaunch(llvm::StringRef Clauses,
                                               llvm::StringRef Launch) {
  auto Shared = splitClauses(Clauses);
  if (!Shared)
    return Shared.takeError();
  auto Own = splitClauses(Launch);
  if (!Own)
    return Own.takeError();
  std::vector<std::string> Out;
  for (const Clause &C : *Shared)
    if (!isLaunch(C.Name))
      Out.push_back(C.Text);
  bool Grid = false, Block = false;
  for (const Clause &C : *Own) {
    if (!isLaunch(C.Name) || C.Name == C.Text)
      return launchError("the launch '" + Launch + "' has '" + C.Name +
                         "'; expected only grid(...), block(...) and "
                         "shmem(...)");
    Grid |= C.Name == "grid";
    Block |= C.Name == "block";
    Out.push_back(C.Text);
  }
  if (!Grid || !Block)
    return launchError("the launch '" + Launch + "' has no " +
                       (Grid ? "block" : "grid") + "(...) clause");
  return llvm::join(Out, " ");
}

std::string optiml::launchOf(llvm::StringRef Clauses) {
  auto All = splitClauses(Clauses);
  if (!All) {
    llvm::consumeError(All.takeError());
    return "";
  }
  std::vector<std::string> Out;
  for (const Clause &C : *All)
    if (isLaunch(C.Name) && C.Name != C.Text)
      Out.push_back(C.Text);
  return llvm::join(Out, " ");
}

std::string optiml::withMarkClauses(llvm::StringRef Text, unsigned Line,
                                    llvm::StringRef Clauses) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  std::string Out;
  for (unsigned I = 0; I < Lines.size(); ++I) {
    if (I + 1 != Line) {
      Out += Lines[I].str() + (I + 1 < Lines.size() ? "\n" : "");
      continue;
    }
    while (I + 1 < Lines.size() && Lines[I].rtrim().ends_with("\\"))
      ++I;
    Out += "#pragma optiml " + Clauses.str() + "\n";
  }
  return Out;
}
