//===- ChangedLinesFormatter.cpp - format what a search changed ----------===//

#include "optiml/Rewrite/ChangedLinesFormatter.h"
#include "optiml/Support/Error.h"

#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Transforms/Utils/LongestCommonSequence.h"

using namespace optiml;

/// Past this many lines between the texts' first and last difference, the
/// line diff is not computed: the whole span is formatted.
static constexpr size_t MaxDiffLines = 20000;

/// The byte ranges of \p Result's lines that are not in \p Original: each
/// run of added or changed lines, found by a line diff (the longest common
/// sequence of lines), so that an unchanged line between two changes stays
/// as it is.
static std::vector<clang::tooling::Range>
changedRanges(llvm::StringRef Original, llvm::StringRef Result) {
  llvm::SmallVector<llvm::StringRef, 0> Old, New;
  Original.split(Old, '\n');
  Result.split(New, '\n');
  size_t Lead = 0;
  while (Lead < Old.size() && Lead < New.size() && Old[Lead] == New[Lead])
    ++Lead;
  if (Lead == Old.size() && Lead == New.size())
    return {};
  size_t Trail = 0;
  while (Trail < Old.size() - Lead && Trail < New.size() - Lead &&
         Old[Old.size() - 1 - Trail] == New[New.size() - 1 - Trail])
    ++Trail;
  // Which of the new lines between the common ends are the old ones.
  std::vector<bool> Kept(New.size(), true);
  for (size_t I = Lead; I < New.size() - Trail; ++I)
    Kept[I] = false;
  size_t OldMid = Old.size() - Trail - Lead, NewMid = New.size() - Trail - Lead;
  if (OldMid > 0 && OldMid + NewMid <= MaxDiffLines) {
    using Lines = std::vector<std::pair<size_t, llvm::StringRef>>;
    Lines A, B;
    for (size_t I = 0; I < OldMid; ++I)
      A.push_back({Lead + I, Old[Lead + I]});
    for (size_t I = 0; I < NewMid; ++I)
      B.push_back({Lead + I, New[Lead + I]});
    llvm::longestCommonSequence<size_t, llvm::StringRef>(
        A, B,
        [](const llvm::StringRef &X, const llvm::StringRef &Y) {
          return X == Y;
        },
        [&](size_t, size_t J) { Kept[J] = true; });
  }
  // Each line's offset: the sum of the lengths before it, with their '\n'.
  // A range ends before its last line's '\n': up to the next line's first
  // token, clang-format would take that line as changed too.
  std::vector<clang::tooling::Range> Ranges;
  size_t Offset = 0;
  bool InRun = false;
  for (size_t I = 0; I < New.size(); ++I) {
    if (!Kept[I]) {
      if (InRun)
        Ranges.back() = clang::tooling::Range(Ranges.back().getOffset(),
                                              Offset + New[I].size() -
                                                  Ranges.back().getOffset());
      else
        Ranges.push_back(clang::tooling::Range(Offset, New[I].size()));
    }
    InRun = !Kept[I];
    Offset += New[I].size() + 1;
  }
  return Ranges; // Empty when lines were only removed: nothing to format.
}

static std::string withoutWhitespace(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text)
    if (!llvm::isSpace(C))
      Out += C;
  return Out;
}

std::string optiml::formatChangedLines(llvm::StringRef Original,
                                       llvm::StringRef Result,
                                       llvm::StringRef StylePath,
                                       llvm::StringRef StyleName) {
  if (StyleName == "none")
    return Result.str();
  std::vector<clang::tooling::Range> Changed = changedRanges(Original, Result);
  if (Changed.empty())
    return Result.str();
  auto Style = clang::format::getStyle(StyleName, StylePath, "LLVM", Result);
  if (!Style) {
    llvm::consumeError(Style.takeError());
    return Result.str();
  }
  clang::tooling::Replacements Edits =
      clang::format::reformat(*Style, Result, Changed, StylePath);
  auto Formatted = clang::tooling::applyAllReplacements(Result, Edits);
  if (!Formatted) {
    llvm::consumeError(Formatted.takeError());
    return Result.str();
  }
  // Formatting only moves whitespace; anything else is not what was
  // verified.
  if (withoutWhitespace(*Formatted) != withoutWhitespace(Result))
    return Result.str();
  return *Formatted;
}

llvm::Error optiml::checkFormatStyle(llvm::StringRef StyleName) {
  if (StyleName == "none" || StyleName == "file")
    return llvm::Error::success();
  auto Style = clang::format::getStyle(StyleName, "input.cu", "LLVM");
  if (Style)
    return llvm::Error::success();
  return makeError(ErrorKind::BadInput,
                   "--format-style=" + StyleName + ": " +
                       llvm::toString(Style.takeError()) +
                       " (expected file, none or a clang-format style)");
}
