//===- ChangedLinesFormatter.cpp - format what a search changed ----------===//

#include "optiml/Rewrite/ChangedLinesFormatter.h"

#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;

/// The byte range of \p Result's lines that differ from \p Original's:
/// after their common leading lines, before their common trailing ones.
static std::optional<clang::tooling::Range>
changedRange(llvm::StringRef Original, llvm::StringRef Result) {
  llvm::SmallVector<llvm::StringRef, 0> Old, New;
  Original.split(Old, '\n');
  Result.split(New, '\n');
  size_t Lead = 0;
  while (Lead < Old.size() && Lead < New.size() && Old[Lead] == New[Lead])
    ++Lead;
  if (Lead == Old.size() && Lead == New.size())
    return std::nullopt;
  size_t Trail = 0;
  while (Trail < Old.size() - Lead && Trail < New.size() - Lead &&
         Old[Old.size() - 1 - Trail] == New[New.size() - 1 - Trail])
    ++Trail;
  // Each line's offset: the sum of the lengths before it, with their '\n'.
  size_t Begin = 0, End = 0;
  for (size_t I = 0; I < New.size() - Trail; ++I) {
    if (I < Lead)
      Begin += New[I].size() + 1;
    End += New[I].size() + 1;
  }
  End = std::min(End, Result.size());
  if (End <= Begin)
    return std::nullopt; // Lines removed only: nothing to format.
  return clang::tooling::Range(Begin, End - Begin);
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
                                       llvm::StringRef StylePath) {
  std::optional<clang::tooling::Range> Changed = changedRange(Original, Result);
  if (!Changed)
    return Result.str();
  auto Style = clang::format::getStyle("file", StylePath, "LLVM", Result);
  if (!Style) {
    llvm::consumeError(Style.takeError());
    return Result.str();
  }
  clang::tooling::Replacements Edits =
      clang::format::reformat(*Style, Result, {*Changed}, StylePath);
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
