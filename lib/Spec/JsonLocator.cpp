//===- JsonLocator.cpp - file positions inside a JSON document -----------===//

#include "optiml/Spec/JsonLocator.h"
#include "optiml/Spec/SpecDiagnostic.h"

using namespace optiml;
using llvm::StringRef;

size_t JsonLocator::skipSpace(size_t I) const {
  while (I < Text.size() && StringRef(" \t\r\n").contains(Text[I]))
    ++I;
  return I;
}

/// \p I is at an opening quote; returns the offset after the closing one.
size_t JsonLocator::skipString(size_t I) const {
  for (++I; I < Text.size() && Text[I] != '"'; ++I)
    if (Text[I] == '\\')
      ++I;
  return std::min(I + 1, Text.size());
}

size_t JsonLocator::skipValue(size_t I) const {
  if (I >= Text.size())
    return I;
  if (Text[I] == '"')
    return skipString(I);
  if (Text[I] != '{' && Text[I] != '[') {
    while (I < Text.size() && !StringRef(",}] \t\r\n").contains(Text[I]))
      ++I;
    return I;
  }
  int Depth = 0;
  do {
    char C = Text[I];
    if (C == '"') {
      I = skipString(I);
      continue;
    }
    Depth += (C == '{' || C == '[') - (C == '}' || C == ']');
    ++I;
  } while (Depth > 0 && I < Text.size());
  return I;
}

/// Moves \p I from an object's '{' to the value of member \p Key.
bool JsonLocator::member(size_t &I, StringRef Key, size_t &KeyAt) const {
  size_t J = skipSpace(I + 1);
  while (J < Text.size() && Text[J] == '"') {
    size_t KeyEnd = skipString(J);
    StringRef Name = Text.slice(J + 1, KeyEnd - 1);
    size_t Value = skipSpace(skipSpace(KeyEnd) + 1); // Past the ':'.
    if (Name == Key) {
      KeyAt = J;
      I = Value;
      return true;
    }
    J = skipSpace(skipValue(Value));
    if (J < Text.size() && Text[J] == ',')
      J = skipSpace(J + 1);
  }
  return false;
}

/// Moves \p I from an array's '[' to its element number \p Index.
bool JsonLocator::element(size_t &I, StringRef Index) const {
  unsigned N = 0;
  if (Index.getAsInteger(10, N))
    return false;
  size_t J = skipSpace(I + 1);
  for (unsigned K = 0; K < N; ++K) {
    J = skipSpace(skipValue(J));
    if (J >= Text.size() || Text[J] != ',')
      return false;
    J = skipSpace(J + 1);
  }
  if (J >= Text.size() || Text[J] == ']')
    return false;
  I = J;
  return true;
}

JsonLocator::Found JsonLocator::find(llvm::ArrayRef<std::string> Path) const {
  Found F;
  F.Key = F.Value = skipSpace(0);
  for (const std::string &Step : Path) {
    size_t I = F.Value, KeyAt = F.Value;
    bool Ok = I < Text.size() &&
              (Text[I] == '{'   ? member(I, Step, KeyAt)
               : Text[I] == '[' ? element(I, Step) && (KeyAt = I, true)
                                : false);
    if (!Ok)
      break;
    F = {KeyAt, I};
  }
  return F;
}

SourcePos JsonLocator::valueAt(llvm::ArrayRef<std::string> Path) const {
  return at(find(Path).Value);
}

SourcePos JsonLocator::keyAt(llvm::ArrayRef<std::string> Path) const {
  return at(find(Path).Key);
}

SourcePos JsonLocator::at(size_t Offset) const {
  return positionOf(Text, Offset, File);
}
