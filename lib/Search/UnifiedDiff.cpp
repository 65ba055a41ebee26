//===- UnifiedDiff.cpp - what a step changed, as `diff -u` shows it -------===//

#include "optiml/Search/UnifiedDiff.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Transforms/Utils/LongestCommonSequence.h"

#include <algorithm>

using namespace optiml;

namespace {

using Lines = std::vector<std::pair<int, llvm::StringRef>>;

struct Op {
  char Kind; ///< ' ', '-' or '+'.
  int Old;   ///< 0-based line in the old text (next line for '+').
  int New;   ///< 0-based line in the new text (next line for '-').
  llvm::StringRef Text;
};

} // namespace

static Lines splitLines(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 64> Parts;
  Text.split(Parts, '\n');
  if (!Parts.empty() && Parts.back().empty())
    Parts.pop_back(); // The text's final newline ends a line, opens none.
  Lines Out;
  for (llvm::StringRef Part : Parts)
    Out.push_back({int(Out.size()), Part});
  return Out;
}

static std::vector<Op> editScript(const Lines &A, const Lines &B) {
  std::vector<std::pair<int, int>> Matches;
  llvm::longestCommonSequence<int, llvm::StringRef>(
      A, B,
      [](const llvm::StringRef &X, const llvm::StringRef &Y) { return X == Y; },
      [&](int I, int J) {
        Matches.push_back({I, J});
      });
  std::reverse(Matches.begin(), Matches.end()); // Reported back to front.
  Matches.push_back({int(A.size()), int(B.size())});
  std::vector<Op> Ops;
  int I = 0, J = 0;
  for (auto [MI, MJ] : Matches) {
    for (; I < MI; ++I)
      Ops.push_back({'-', I, J, A[I].second});
    for (; J < MJ; ++J)
      Ops.push_back({'+', I, J, B[J].second});
    if (MI < int(A.size()))
      Ops.push_back({' ', I++, J++, A[MI].second});
  }
  return Ops;
}

/// "-start,count" in diff's convention: 1-based, and the line before an
/// empty range.
static std::string range(int Start, int Count) {
  return std::to_string(Count ? Start + 1 : Start) + "," +
         std::to_string(Count);
}

static void emitHunk(const std::vector<Op> &Ops, size_t Begin, size_t End,
                     std::string &Out) {
  int OldCount = 0, NewCount = 0;
  for (size_t K = Begin; K < End; ++K) {
    OldCount += Ops[K].Kind != '+';
    NewCount += Ops[K].Kind != '-';
  }
  Out += "@@ -" + range(Ops[Begin].Old, OldCount) + " +" +
         range(Ops[Begin].New, NewCount) + " @@\n";
  for (size_t K = Begin; K < End; ++K)
    Out += std::string(1, Ops[K].Kind) + Ops[K].Text.str() + "\n";
}

std::string optiml::unifiedDiff(llvm::StringRef Old, llvm::StringRef New,
                                llvm::StringRef OldName,
                                llvm::StringRef NewName, unsigned Context) {
  if (Old == New)
    return "";
  std::vector<Op> Ops = editScript(splitLines(Old), splitLines(New));
  std::string Out = "--- " + OldName.str() + "\n+++ " + NewName.str() + "\n";
  size_t K = 0;
  while (K < Ops.size()) {
    while (K < Ops.size() && Ops[K].Kind == ' ')
      ++K;
    if (K == Ops.size())
      break;
    size_t Begin = K >= Context ? K - Context : 0;
    // Extend over changes separated by at most 2 x Context equal lines.
    size_t Last = K;
    for (size_t Scan = K; Scan < Ops.size() && Scan <= Last + 2 * Context + 1;
         ++Scan)
      if (Ops[Scan].Kind != ' ')
        Last = Scan;
    size_t End = std::min(Ops.size(), Last + 1 + Context);
    emitHunk(Ops, Begin, End, Out);
    K = Last + 1;
  }
  return Out;
}
