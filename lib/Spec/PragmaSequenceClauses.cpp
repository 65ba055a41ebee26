//===- PragmaSequenceClauses.cpp - a mark's sequence of launches ---------===//
//
// The clauses that make one run of a kernel a sequence of launches, as a
// program runs it: repeat(...) (an iteration count, or a variable over a
// range: a launch per anti-diagonal), swap(a, b) (ping-pong buffers),
// then(...) / before(...) (other kernels of the file, in CUDA's launch
// syntax) and cooperative (a grid that synchronizes). Syntax only: the
// spec builder checks names and types.
//
//===----------------------------------------------------------------------===//

#include "optiml/Spec/PragmaSpecParser.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

void PragmaSpecParser::sequenceClause(Piece Name) {
  if (Draft.Sequence.empty())
    Draft.Sequence.Pos = Loc(Name.Offset);
}

Error PragmaSpecParser::repeat(Piece Name, Piece Body) {
  SequenceDraft &S = Draft.Sequence;
  if (S.Count || S.Last)
    return error(Name.Offset, "clause 'repeat' is given twice",
                 "one repeat(...) clause");
  static const char Form[] = "repeat(COUNT) or repeat(VAR = FIRST .. LAST)";
  Piece Whole{Body.Text.trim(),
              Body.Offset + Body.Text.size() - Body.Text.ltrim().size()};
  if (Whole.Text.empty())
    return error(Body.Offset, "empty 'repeat(...)'", Form);
  sequenceClause(Name);
  size_t Eq = Whole.Text.find('=');
  if (Eq == StringRef::npos) {
    S.Count = expr(Whole);
    return Error::success();
  }
  auto A = assignment(Whole);
  if (!A)
    return A.takeError();
  auto [Var, Range] = *A;
  size_t Dots = Range.Text.find("..");
  if (Dots == StringRef::npos)
    return error(Range.Offset,
                 "'" + Range.Text + "' is not a range of the repeat variable",
                 "FIRST .. LAST, e.g. repeat(d = 1 .. 2 * N - 1)");
  StringRef First = Range.Text.take_front(Dots),
            Last = Range.Text.drop_front(Dots + 2);
  if (First.trim().empty() || Last.trim().empty())
    return error(Range.Offset + Dots, "a range without both ends",
                 "FIRST .. LAST, e.g. repeat(d = 1 .. 2 * N - 1)");
  S.Var = expr(Var);
  S.First = expr({First.trim(), Range.Offset});
  S.Last = expr({Last.trim(),
                 Range.Offset + Dots + 2 + Last.size() - Last.ltrim().size()});
  return Error::success();
}

Error PragmaSpecParser::swap(Piece Name, Piece Body) {
  auto Items = items(Name, Body);
  if (!Items)
    return Items.takeError();
  if (Items->size() != 2)
    return error(Name.Offset,
                 "'swap' names " + llvm::Twine(Items->size()) + " buffers",
                 "two buffers: swap(BUFFER, BUFFER)");
  for (Piece Item : *Items)
    if (Error Err = checkName(Item, "buffer"))
      return Err;
  sequenceClause(Name);
  Draft.Sequence.Swaps.push_back({expr((*Items)[0]), expr((*Items)[1])});
  return Error::success();
}

Error PragmaSpecParser::cooperative(Piece Name, Piece Body) {
  if (!Body.Text.trim().empty())
    return error(Body.Offset, "'cooperative' takes no arguments",
                 "the word 'cooperative' alone");
  if (Draft.Sequence.Cooperative)
    return error(Name.Offset, "clause 'cooperative' is given twice",
                 "one 'cooperative'");
  sequenceClause(Name);
  Draft.Sequence.Cooperative = Loc(Name.Offset);
  return Error::success();
}

Expected<DimsDraft> PragmaSpecParser::launchDims(Piece Item) const {
  if (!Item.Text.starts_with("dim3"))
    return DimsDraft{{expr(Item)}, Loc(Item.Offset)};
  StringRef Rest = Item.Text.drop_front(4);
  size_t Open = Item.Offset + 4 + Rest.size() - Rest.ltrim().size();
  if (Open >= Text.size() || Text[Open] != '(')
    return DimsDraft{{expr(Item)}, Loc(Item.Offset)};
  auto Close = closingParen(Open);
  if (!Close)
    return Close.takeError();
  Piece Dim3{"dim3", Item.Offset};
  auto Dims = items(Dim3, {Text.slice(Open + 1, *Close), Open + 1});
  if (!Dims)
    return Dims.takeError();
  if (*Close + 1 != Item.Offset + Item.Text.size() || Dims->size() > 3)
    return error(Item.Offset, "'" + Item.Text + "' is not a launch dimension",
                 "an expression or dim3(X[, Y[, Z]])");
  DimsDraft Out{{}, Loc(Item.Offset)};
  for (Piece D : *Dims)
    Out.Dims.push_back(expr(D));
  return Out;
}

/// Splits \p Body at its top-level commas, as items() does, but knowing
/// nothing of clause names: the launch configuration of a step.
static std::vector<std::pair<StringRef, size_t>> splitTop(StringRef Body,
                                                          size_t Offset) {
  std::vector<std::pair<StringRef, size_t>> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= Body.size(); ++I) {
    char C = I < Body.size() ? Body[I] : ',';
    Depth += (C == '(' || C == '[') - (C == ')' || C == ']');
    if (C != ',' || Depth != 0)
      continue;
    StringRef Item = Body.slice(Start, I);
    Out.push_back(
        {Item.trim(), Offset + Start + Item.size() - Item.ltrim().size()});
    Start = I + 1;
  }
  return Out;
}

Error PragmaSpecParser::launchStep(Piece Name, Piece Body) {
  std::string Form = ("then(KERNEL<<<GRID, BLOCK[, SHMEM]>>>(ARG, ...))");
  LaunchDraft L;
  L.Before = Name.Text == "before";
  StringRef T = Body.Text;
  size_t I = T.size() - T.ltrim().size();
  if (T.substr(I).starts_with("cooperative") &&
      T.substr(I + 11).ltrim().size() < T.substr(I + 11).size()) {
    L.Cooperative = true;
    I = T.size() - T.substr(I + 11).ltrim().size();
  }
  size_t Open = T.find("<<<", I), Close = T.find(">>>", I);
  if (Open == StringRef::npos || Close == StringRef::npos || Close < Open)
    return error(Body.Offset + I,
                 "'" + Name.Text + "(...)' is not a kernel launch", Form);
  Piece Kernel{T.slice(I, Open).trim(), Body.Offset + I};
  bool NameOk = !Kernel.Text.empty() && llvm::all_of(Kernel.Text, [](char C) {
    return llvm::isAlnum(C) || C == '_' || C == ':';
  });
  if (!NameOk)
    return error(Kernel.Offset, "'" + Kernel.Text + "' is not a kernel name",
                 "the name of a kernel of the file, e.g. " + Form);
  L.Kernel = expr(Kernel);
  auto Config = splitTop(T.slice(Open + 3, Close), Body.Offset + Open + 3);
  if (Config.size() < 2 || Config.size() > 3 ||
      llvm::any_of(Config, [](const auto &C) { return C.first.empty(); }))
    return error(Body.Offset + Open,
                 "a launch configuration of " + llvm::Twine(Config.size()) +
                     " item(s)",
                 "<<<GRID, BLOCK>>> or <<<GRID, BLOCK, SHMEM>>>");
  auto Grid = launchDims({Config[0].first, Config[0].second});
  if (!Grid)
    return Grid.takeError();
  auto Block = launchDims({Config[1].first, Config[1].second});
  if (!Block)
    return Block.takeError();
  L.Grid = std::move(*Grid);
  L.Block = std::move(*Block);
  if (Config.size() == 3)
    L.SharedMemory = expr({Config[2].first, Config[2].second});
  StringRef After = T.drop_front(Close + 3);
  size_t ArgsAt = Body.Offset + Close + 3 + After.size() - After.ltrim().size();
  if (!After.trim().starts_with("(") || !After.trim().ends_with(")"))
    return error(ArgsAt, "no argument list after the launch configuration",
                 Form);
  auto End = closingParen(ArgsAt);
  if (!End)
    return End.takeError();
  if (*End + 1 != Body.Offset + T.rtrim().size())
    return error(*End + 1, "unexpected text after the arguments", Form);
  StringRef Inside = Text.slice(ArgsAt + 1, *End);
  if (!Inside.trim().empty()) {
    auto Args = items(Name, {Inside, ArgsAt + 1});
    if (!Args)
      return Args.takeError();
    for (Piece A : *Args)
      L.Args.push_back(expr(A));
  }
  sequenceClause(Name);
  Draft.Sequence.Launches.push_back(std::move(L));
  return Error::success();
}
