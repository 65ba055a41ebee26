//===- MarkLocator.cpp - file positions of a mark's clause text ----------===//

#include "optiml/Spec/MarkLocator.h"

using namespace optiml;
using llvm::StringRef;

/// The offset of 1-based \p Line, \p Column in \p Text, or npos.
static size_t offsetOf(StringRef Text, unsigned Line, unsigned Column) {
  size_t Offset = 0;
  for (unsigned L = 1; L < Line; ++L) {
    Offset = Text.find('\n', Offset);
    if (Offset == StringRef::npos)
      return StringRef::npos;
    ++Offset;
  }
  Offset += Column - 1;
  return Offset < Text.size() ? Offset : StringRef::npos;
}

/// Skips blanks, then \p Word; npos when \p Word is not there.
static size_t skipWord(StringRef Text, size_t I, StringRef Word) {
  while (I < Text.size() && (Text[I] == ' ' || Text[I] == '\t'))
    ++I;
  return Text.substr(I).starts_with(Word) ? I + Word.size() : StringRef::npos;
}

MarkLocator::MarkLocator(const KernelMark &Mark, StringRef Source)
    : Mark(Mark.Pos) {
  size_t Hash = offsetOf(Source, Mark.Pos.Line, Mark.Pos.Column);
  if (Hash == StringRef::npos || Source[Hash] != '#')
    return;
  size_t I = skipWord(Source, Hash + 1, "pragma");
  if (I != StringRef::npos)
    I = skipWord(Source, I, "optiml");
  if (I == StringRef::npos)
    return;
  replay(Source, I, Mark.Pos.Line, Mark.Pos.Column + (I - Hash), Mark.Clauses);
}

/// Joins the directive's lines exactly as PragmaScanner does, recording
/// where each kept character came from; keeps the map only if the result
/// is (a prefix of, when a second mark was appended) \p Clauses.
void MarkLocator::replay(StringRef Source, size_t From, unsigned Line,
                         unsigned Column, StringRef Clauses) {
  std::string Out;
  std::vector<std::pair<unsigned, unsigned>> Map;
  auto Keep = [&](char C) {
    if (C != ' ' || (!Out.empty() && Out.back() != ' ')) {
      Out.push_back(C);
      Map.push_back({Line, Column});
    }
  };
  size_t I = From;
  while (I < Source.size() && Source[I] != '\n') {
    if (Source[I] == '\\') {
      size_t J = I + 1;
      while (J < Source.size() && StringRef(" \t\r").contains(Source[J]))
        ++J;
      if (J < Source.size() && Source[J] == '\n') {
        Keep(' ');
        I = J + 1;
        ++Line;
        Column = 1;
        continue;
      }
    }
    char C = Source[I++];
    Keep(C == '\t' || C == '\r' ? ' ' : C);
    ++Column;
  }
  while (!Out.empty() && Out.back() == ' ') {
    Out.pop_back();
    Map.pop_back();
  }
  if (StringRef(Clauses).starts_with(Out))
    LineColumn = std::move(Map);
}

SourcePos MarkLocator::at(size_t Offset) const {
  if (Offset < LineColumn.size())
    return SourcePos{Mark.File, LineColumn[Offset].first,
                     LineColumn[Offset].second};
  // "#pragma optiml " is 15 characters.
  return SourcePos{Mark.File, Mark.Line, unsigned(Mark.Column + 15 + Offset)};
}
