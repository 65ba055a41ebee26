//===- PragmaSpecParser.cpp - a kernel spec from a pragma mark -----------===//

#include "optiml/Spec/PragmaSpecParser.h"
#include "optiml/Spec/SpecDiagnostic.h"

#include "clang/Basic/CharInfo.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace {
struct Usage {
  StringRef Name, Form;
};
} // namespace

/// Every clause and distribution with the form an error message suggests.
static constexpr Usage Clauses[] = {
    {"sizes", "sizes(NAME = EXPR, ...)"},
    {"in", "in(NAME[LENGTH], ...)"},
    {"out", "out(NAME[LENGTH], ...)"},
    {"inout", "inout(NAME[LENGTH], ...)"},
    {"scalar", "scalar(NAME = EXPR, ...)"},
    {"null", "null(NAME, ...)"},
    {"alias", "alias(NAME = BUFFER, ...)"},
    {"symbol", "symbol(NAME[, NAME[LENGTH], ...])"},
    {"grid", "grid(X[, Y[, Z]])"},
    {"block", "block(X[, Y[, Z]])"},
    {"shmem", "shmem(BYTES)"},
    {"dist", "dist(NAME = uniform(lo, hi), ...)"},
    {"tolerance", "tolerance(rtol = R, atol = A, norm = N)"},
    {"seeds", "seeds(S1, S2, ...)"},
    {"template", "template(NAME = TYPE or VALUE, ...)"},
    {"instance", "instance(NAME: SIZE = EXPR, ...)"},
    {"repeat", "repeat(COUNT) or repeat(VAR = FIRST .. LAST)"},
    {"swap", "swap(BUFFER, BUFFER)"},
    {"then", "then(KERNEL<<<GRID, BLOCK[, SHMEM]>>>(ARG, ...))"},
    {"before", "before(KERNEL<<<GRID, BLOCK[, SHMEM]>>>(ARG, ...))"},
    {"cooperative", "cooperative"},
};

static constexpr Usage Distributions[] = {
    {"uniform", "uniform(lo, hi)"},   {"normal", "normal(mean, stddev)"},
    {"int", "int(lo, hi)"},           {"index", "index(scale, offset[, mod])"},
    {"constant", "constant(value)"},  {"offsets", "offsets(gap_lo, gap_hi)"},
    {"permutation", "permutation()"}, {"sorted", "sorted(lo, hi)"},
};

static StringRef formOf(StringRef Name) {
  for (const Usage &U : Clauses)
    if (U.Name == Name)
      return U.Form;
  for (const Usage &U : Distributions)
    if (U.Name == Name)
      return U.Form;
  return "NAME(...)";
}

static std::string knownNames(llvm::ArrayRef<Usage> Table) {
  std::vector<StringRef> Names;
  for (const Usage &U : Table)
    Names.push_back(U.Name);
  return llvm::join(Names, ", ");
}

static bool isReservedName(StringRef S) {
  return S == "ceil_div" || S == "min" || S == "max";
}

/// The nearest of \p Table's names to a misspelling, for a hint.
static std::string didYouMean(StringRef Word, llvm::ArrayRef<Usage> Table) {
  for (const Usage &U : Table)
    if (Word.edit_distance(U.Name) <= 2)
      return (" (did you mean '" + U.Name + "'?)").str();
  return "";
}

Error PragmaSpecParser::error(size_t Offset, const llvm::Twine &What,
                              const llvm::Twine &Expected) const {
  return specError(Loc(Offset), What, Expected);
}

Expected<SpecDraft> PragmaSpecParser::parse(const KernelMark &Mark,
                                            const MarkLocator &Loc) {
  PragmaSpecParser P(Mark.Clauses,
                     [&Loc](size_t Offset) { return Loc.at(Offset); });
  if (Error Err = P.run(Mark))
    return Err;
  return std::move(P.Draft);
}

Expected<DistributionDraft>
PragmaSpecParser::parseDistribution(StringRef Text, const Locator &Loc) {
  PragmaSpecParser P(Text, Loc);
  size_t Begin = Text.size() - Text.ltrim().size();
  return P.distribution({Text.trim(), Begin});
}

static size_t skipBlanks(StringRef Text, size_t I) {
  while (I < Text.size() && llvm::isSpace(Text[I]))
    ++I;
  return I;
}

static size_t skipName(StringRef Text, size_t I) {
  while (I < Text.size() && (llvm::isAlnum(Text[I]) || Text[I] == '_'))
    ++I;
  return I;
}

/// A clause with an error does not end the parse: the clauses after it are
/// checked too, so that one run reports every error of the mark.
Error PragmaSpecParser::run(const KernelMark &Mark) {
  Draft.From = SpecDraft::Origin::Pragma;
  Draft.Pos = Mark.Pos;
  size_t I = skipBlanks(Text, 0);
  if (Text.substr(I, skipName(Text, I) - I) != "kernel")
    return error(I, "the mark does not start with 'kernel'",
                 "'#pragma optiml kernel' followed by clauses such as "
                 "sizes(...) in(...) out(...) grid(...) block(...)");
  Error Found = Error::success();
  auto Stop = [&](Error Last) {
    return llvm::joinErrors(std::move(Found), std::move(Last));
  };
  for (I = skipBlanks(Text, I + 6); I < Text.size(); I = skipBlanks(Text, I)) {
    char C = Text[I];
    if (C == ')' || C == ']')
      return Stop(error(I,
                        "unbalanced parenthesis: '" + StringRef(&C, 1) +
                            "' without a matching opening one",
                        "clauses of the form NAME(...)"));
    if (!llvm::isAlpha(C) && C != '_')
      return Stop(error(I, "unexpected '" + StringRef(&C, 1) + "'",
                        "a clause such as sizes(...) or in(...)"));
    Piece Name{Text.slice(I, skipName(Text, I)), I};
    I = skipBlanks(Text, I + Name.Text.size());
    // A second mark before the same kernel is appended with its own
    // `kernel` word (KernelFinder warns about it).
    if (Name.Text == "kernel")
      continue;
    bool Known = llvm::any_of(
        Clauses, [&](const Usage &U) { return U.Name == Name.Text; });
    if (!Known)
      Found = Stop(error(Name.Offset,
                         "unknown clause '" + Name.Text + "'" +
                             didYouMean(Name.Text, Clauses),
                         "one of " + knownNames(Clauses)));
    if (I == Text.size() || Text[I] != '(') {
      if (!Known)
        continue;
      // The one clause that is a word alone.
      if (Name.Text == "cooperative") {
        if (Error Err = cooperative(Name, {"", I}))
          Found = Stop(std::move(Err));
        continue;
      }
      return Stop(
          error(I, "clause '" + Name.Text + "' has no '('", formOf(Name.Text)));
    }
    auto Close = closingParen(I);
    if (!Close)
      return Stop(Close.takeError());
    if (Known)
      if (Error Err = clause(Name, {Text.slice(I + 1, *Close), I + 1}))
        Found = Stop(std::move(Err));
    I = *Close + 1;
  }
  return Found;
}

Expected<size_t> PragmaSpecParser::closingParen(size_t Open) const {
  std::vector<size_t> Stack;
  for (size_t I = Open; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '(' || C == '[') {
      Stack.push_back(I);
      continue;
    }
    if (C != ')' && C != ']')
      continue;
    char Want = Text[Stack.back()] == '(' ? ')' : ']';
    if (C != Want)
      return error(I,
                   "unbalanced parenthesis: '" + StringRef(&C, 1) +
                       "' closes the '" + Text.substr(Stack.back(), 1) +
                       "' at column " + llvm::Twine(Loc(Stack.back()).Column),
                   "'" + StringRef(&Want, 1) + "'");
    Stack.pop_back();
    if (Stack.empty())
      return I;
  }
  return error(Stack.front(),
               "unbalanced parenthesis: this '" +
                   Text.substr(Stack.front(), 1) + "' is never closed",
               Text[Stack.front()] == '(' ? "')'" : "']'");
}

Expected<std::vector<PragmaSpecParser::Piece>>
PragmaSpecParser::items(Piece Name, Piece Body) const {
  std::vector<Piece> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= Body.Text.size(); ++I) {
    char C = I < Body.Text.size() ? Body.Text[I] : ',';
    Depth += (C == '(' || C == '[') - (C == ')' || C == ']');
    if (C != ',' || Depth != 0)
      continue;
    StringRef Item = Body.Text.slice(Start, I);
    size_t Lead = Item.size() - Item.ltrim().size();
    if (Item.trim().empty())
      return error(Body.Offset + Start + Lead,
                   "empty item in '" + Name.Text + "(...)'", formOf(Name.Text));
    Out.push_back({Item.trim(), Body.Offset + Start + Lead});
    Start = I + 1;
  }
  return Out;
}

Error PragmaSpecParser::checkName(Piece Name, StringRef What) const {
  if (!clang::isValidAsciiIdentifier(Name.Text))
    return error(Name.Offset,
                 "'" + Name.Text + "' is not a valid " + What + " name",
                 "an identifier");
  return Error::success();
}

/// Splits "NAME = VALUE" into its name and value.
Expected<std::pair<PragmaSpecParser::Piece, PragmaSpecParser::Piece>>
PragmaSpecParser::assignment(Piece Item, bool FieldPath) const {
  size_t Eq = Item.Text.find('=');
  if (Eq == StringRef::npos)
    return error(Item.Offset, "'" + Item.Text + "' is not an assignment",
                 "NAME = VALUE");
  StringRef Value = Item.Text.substr(Eq + 1);
  Piece Name{Item.Text.take_front(Eq).rtrim(), Item.Offset};
  Piece Rhs{Value.trim(),
            Item.Offset + Eq + 1 + Value.size() - Value.ltrim().size()};
  if (Rhs.Text.empty())
    return error(Item.Offset + Eq, "no value after '='", "NAME = VALUE");
  Piece Head = Name;
  if (FieldPath) {
    Head.Text = Name.Text.take_front(Name.Text.find_first_of(".["));
    StringRef Path = Name.Text.drop_front(Head.Text.size());
    bool PathOk = Path.empty() || (Path.front() == '.' && Path.size() > 1 &&
                                   llvm::all_of(Path, [](char C) {
                                     return llvm::isAlnum(C) || C == '_' ||
                                            C == '.' || C == '[' || C == ']';
                                   }));
    if (!PathOk)
      return error(Name.Offset + Head.Text.size(),
                   "'" + Name.Text + "' is not a buffer or a field of one",
                   "NAME or NAME.FIELD, e.g. opt.x");
  }
  if (Error Err = checkName(Head, "argument or size"))
    return Err;
  return std::make_pair(Name, Rhs);
}

llvm::Expected<
    std::vector<std::pair<PragmaSpecParser::Piece, PragmaSpecParser::Piece>>>
PragmaSpecParser::assignments(Piece Name, Piece Body, bool FieldPath) const {
  auto Items = items(Name, Body);
  if (!Items)
    return Items.takeError();
  std::vector<std::pair<Piece, Piece>> Out;
  for (Piece Item : *Items) {
    auto A = assignment(Item, FieldPath);
    if (!A)
      return A.takeError();
    Out.push_back(*A);
  }
  return Out;
}

Error PragmaSpecParser::clause(Piece Name, Piece Body) {
  StringRef N = Name.Text;
  if (N == "sizes")
    return sizes(Name, Body);
  if (auto Role = protocol::parseRole(N); Role && *Role != ArgRole::Scalar)
    return buffers(Name, *Role, Body);
  if (N == "scalar")
    return scalars(Name, Body);
  if (N == "null")
    return nulls(Name, Body);
  if (N == "alias")
    return aliases(Name, Body);
  if (N == "symbol")
    return symbols(Name, Body);
  if (N == "grid")
    return dims(Name, Body, Draft.Grid, 3);
  if (N == "block")
    return dims(Name, Body, Draft.Block, 3);
  if (N == "seeds")
    return dims(Name, Body, Draft.Seeds, SIZE_MAX);
  if (N == "shmem")
    return shmem(Name, Body);
  if (N == "dist")
    return dists(Name, Body);
  if (N == "tolerance")
    return tolerance(Name, Body);
  if (N == "template")
    return templateArgs(Name, Body);
  if (N == "repeat")
    return repeat(Name, Body);
  if (N == "swap")
    return swap(Name, Body);
  if (N == "then" || N == "before")
    return launchStep(Name, Body);
  if (N == "cooperative")
    return cooperative(Name, Body);
  return instance(Name, Body);
}

Error PragmaSpecParser::sizes(Piece Name, Piece Body) {
  auto As = assignments(Name, Body);
  if (!As)
    return As.takeError();
  for (const auto &A : *As) {
    Piece Size = A.first;
    if (isReservedName(Size.Text))
      return error(Size.Offset, "'" + Size.Text + "' is a function name",
                   "a size name other than ceil_div, min and max");
    if (llvm::any_of(Draft.Sizes,
                     [&](const auto &S) { return S.first == Size.Text; }))
      return error(Size.Offset, "size '" + Size.Text + "' is defined twice",
                   "one definition per size");
    Draft.Sizes.push_back({Size.Text.str(), expr(A.second)});
  }
  return Error::success();
}

Error PragmaSpecParser::giveRole(Piece Name, ArgRole Role, SpecExpr Expr) {
  ArgDraft *Arg = Draft.findArg(Name.Text);
  if (Arg && Arg->Role)
    return error(Name.Offset,
                 "'" + Name.Text + "' is given two roles, '" +
                     roleName(*Arg->Role) + "' and '" + roleName(Role) + "'",
                 "one role per parameter (inout(...) for a buffer that is "
                 "read and written)");
  if (!Arg) {
    Draft.Args.push_back(ArgDraft());
    Arg = &Draft.Args.back();
    Arg->Name = Name.Text.str();
  }
  Arg->Role = Role;
  Arg->Pos = Loc(Name.Offset);
  (Role == ArgRole::Scalar ? Arg->Value : Arg->Length) = std::move(Expr);
  return Error::success();
}

Error PragmaSpecParser::buffers(Piece Name, ArgRole Role, Piece Body) {
  auto Items = items(Name, Body);
  if (!Items)
    return Items.takeError();
  for (Piece Item : *Items) {
    auto Buffer = sizedName(Item, /*LengthOptional=*/false);
    if (!Buffer)
      return Buffer.takeError();
    if (Error Err = giveRole(Buffer->first, Role, *Buffer->second))
      return Err;
  }
  return Error::success();
}

/// `symbol(coef, table[N])`: device variables filled as inputs before
/// each launch; without a length, the whole variable.
Error PragmaSpecParser::symbols(Piece Name, Piece Body) {
  auto Items = items(Name, Body);
  if (!Items)
    return Items.takeError();
  for (Piece Item : *Items) {
    auto Symbol = sizedName(Item, /*LengthOptional=*/true);
    if (!Symbol)
      return Symbol.takeError();
    if (Error Err = giveRole(Symbol->first, ArgRole::In,
                             Symbol->second.value_or(SpecExpr())))
      return Err;
    ArgDraft *A = Draft.findArg(Symbol->first.Text);
    A->Symbol = true;
    A->Length = Symbol->second;
  }
  return Error::success();
}

/// `alias(out = in)`: the parameter on the left is passed the buffer on the
/// right, as a launch `k(x, x)` does.
Error PragmaSpecParser::aliases(Piece Name, Piece Body) {
  auto As = assignments(Name, Body);
  if (!As)
    return As.takeError();
  for (const auto &[Param, Buffer] : *As) {
    if (Error Err = checkName(Buffer, "buffer"))
      return Err;
    if (Error Err = giveRole(Param, ArgRole::Scalar, expr(Buffer)))
      return Err;
    ArgDraft *A = Draft.findArg(Param.Text);
    A->AliasOf = Buffer.Text.str();
    A->Value.reset();
  }
  return Error::success();
}

/// `NAME[LENGTH]`, or `NAME` alone when \p LengthOptional.
Expected<std::pair<PragmaSpecParser::Piece, std::optional<SpecExpr>>>
PragmaSpecParser::sizedName(Piece Item, bool LengthOptional) const {
  size_t Open = Item.Text.find('[');
  Piece Buffer{Item.Text.take_front(Open).rtrim(), Item.Offset};
  if (Error Err = checkName(Buffer, LengthOptional ? "symbol" : "buffer"))
    return std::move(Err);
  if (Open == StringRef::npos && LengthOptional)
    return std::pair(Buffer, std::optional<SpecExpr>());
  if (Open == StringRef::npos)
    return error(Item.Offset, "buffer '" + Buffer.Text + "' has no length",
                 Buffer.Text + "[LENGTH], e.g. " + Buffer.Text + "[N]");
  if (!Item.Text.ends_with("]"))
    return error(Item.Offset + Item.Text.rfind(']') + 1,
                 "unexpected text after the length of '" + Buffer.Text + "'",
                 Buffer.Text + "[LENGTH]");
  StringRef Inside = Item.Text.slice(Open + 1, Item.Text.size() - 1);
  Piece Length{Inside.trim(),
               Item.Offset + Open + 1 + Inside.size() - Inside.ltrim().size()};
  if (Length.Text.empty())
    return error(Item.Offset + Open, "empty length for '" + Buffer.Text + "'",
                 Buffer.Text + "[LENGTH], e.g. " + Buffer.Text + "[N]");
  return std::pair(Buffer, std::optional<SpecExpr>(expr(Length)));
}

Error PragmaSpecParser::scalars(Piece Name, Piece Body) {
  auto As = assignments(Name, Body);
  if (!As)
    return As.takeError();
  for (const auto &A : *As) {
    if (Error Err = giveRole(A.first, ArgRole::Scalar, expr(A.second)))
      return Err;
  }
  return Error::success();
}

Error PragmaSpecParser::nulls(Piece Name, Piece Body) {
  auto Items = items(Name, Body);
  if (!Items)
    return Items.takeError();
  for (Piece Item : *Items) {
    if (Error Err = checkName(Item, "pointer"))
      return Err;
    if (Error Err =
            giveRole(Item, ArgRole::Scalar, SpecExpr{"0", Loc(Item.Offset)}))
      return Err;
    Draft.findArg(Item.Text)->Null = true;
  }
  return Error::success();
}

Error PragmaSpecParser::templateArgs(Piece Name, Piece Body) {
  auto As = assignments(Name, Body);
  if (!As)
    return As.takeError();
  for (const auto &A : *As) {
    if (llvm::any_of(Draft.TemplateArgs,
                     [&](const auto &T) { return T.first == A.first.Text; }))
      return error(A.first.Offset,
                   "template argument '" + A.first.Text + "' is given twice",
                   "one value per template parameter");
    Draft.TemplateArgs.push_back({A.first.Text.str(), expr(A.second)});
  }
  return Error::success();
}

Error PragmaSpecParser::dims(Piece Name, Piece Body,
                             std::optional<DimsDraft> &Out, size_t Max) {
  if (Out)
    return error(Name.Offset, "clause '" + Name.Text + "' is given twice",
                 "one " + Name.Text + "(...) clause");
  auto Items = items(Name, Body);
  if (!Items)
    return Items.takeError();
  if (Items->size() > Max)
    return error(Name.Offset,
                 "'" + Name.Text + "' has " + llvm::Twine(Items->size()) +
                     " dimensions",
                 "1 to 3 expressions: " + formOf(Name.Text));
  Out = DimsDraft{{}, Loc(Name.Offset)};
  for (Piece Item : *Items)
    Out->Dims.push_back(expr(Item));
  return Error::success();
}

Error PragmaSpecParser::shmem(Piece Name, Piece Body) {
  if (Draft.SharedMemory)
    return error(Name.Offset, "clause 'shmem' is given twice",
                 "one shmem(...) clause");
  auto Items = items(Name, Body);
  if (!Items)
    return Items.takeError();
  if (Items->size() != 1)
    return error(Name.Offset,
                 "'shmem' has " + llvm::Twine(Items->size()) + " values",
                 "one expression: shmem(BYTES)");
  Draft.SharedMemory = expr(Items->front());
  return Error::success();
}

Expected<DistributionDraft> PragmaSpecParser::distribution(Piece P) const {
  size_t NameEnd = skipName(P.Text, 0);
  StringRef Kind = P.Text.take_front(NameEnd);
  size_t Open = skipBlanks(P.Text, NameEnd);
  bool Known = llvm::any_of(Distributions,
                            [&](const Usage &U) { return U.Name == Kind; });
  if (!Known || Open == P.Text.size() || P.Text[Open] != '(')
    return error(P.Offset, "'" + P.Text + "' is not a distribution",
                 knownNames(Distributions) + " with their arguments, e.g. "
                                             "uniform(-1, 1)");
  auto Close = closingParen(P.Offset + Open);
  if (!Close)
    return Close.takeError();
  if (*Close + 1 != P.Offset + P.Text.size())
    return error(*Close + 1, "unexpected text after '" + Kind + "(...)'",
                 formOf(Kind));
  Piece KindPiece{Kind, P.Offset};
  StringRef Inside = Text.slice(P.Offset + Open + 1, *Close);
  auto Args = Inside.trim().empty()
                  ? Expected<std::vector<Piece>>(std::vector<Piece>())
                  : items(KindPiece, {Inside, P.Offset + Open + 1});
  if (!Args)
    return Args.takeError();
  size_t Min = Kind == "constant"      ? 1
               : Kind == "permutation" ? 0
                                       : 2,
         Max = Kind == "index" ? 3 : Min;
  if (Args->size() < Min || Args->size() > Max)
    return error(P.Offset,
                 "distribution '" + Kind + "' has " +
                     llvm::Twine(Args->size()) + " arguments",
                 formOf(Kind));
  DistributionDraft D{Kind.str(), {}, Loc(P.Offset)};
  for (Piece A : *Args)
    D.Params.push_back(expr(A));
  return D;
}

Error PragmaSpecParser::dists(Piece Name, Piece Body) {
  auto As = assignments(Name, Body, /*FieldPath=*/true);
  if (!As)
    return As.takeError();
  for (const auto &A : *As) {
    auto D = distribution(A.second);
    if (!D)
      return D.takeError();
    auto [ArgName, Dotted] = A.first.Text.split('.');
    ArgName = ArgName.take_front(ArgName.find('['));
    std::string Field = A.first.Text.drop_front(ArgName.size() + 1).str();
    bool IsField = A.first.Text.size() > ArgName.size();
    ArgDraft *Arg = Draft.findArg(ArgName);
    bool Twice =
        Arg &&
        (IsField ? llvm::any_of(Arg->FieldDists,
                                [&](const auto &F) { return F.first == Field; })
                 : Arg->Dist.has_value());
    if (Twice)
      return error(A.first.Offset,
                   "'" + A.first.Text + "' is given two distributions",
                   "one distribution per input buffer or field");
    if (!Arg) {
      Draft.Args.push_back(ArgDraft());
      Arg = &Draft.Args.back();
      Arg->Name = ArgName.str();
      Arg->Pos = Loc(A.first.Offset);
    }
    if (IsField)
      Arg->FieldDists.emplace_back(Field, std::move(*D));
    else
      Arg->Dist = std::move(*D);
  }
  return Error::success();
}

Error PragmaSpecParser::tolerance(Piece Name, Piece Body) {
  auto As = assignments(Name, Body);
  if (!As)
    return As.takeError();
  for (const auto &A : *As) {
    StringRef Key = A.first.Text;
    std::optional<SpecExpr> *Field = Key == "rtol"   ? &Draft.RTol
                                     : Key == "atol" ? &Draft.ATol
                                     : Key == "norm" ? &Draft.NormTol
                                                     : nullptr;
    if (!Field)
      return error(A.first.Offset, "unknown tolerance '" + Key + "'",
                   "rtol, atol or norm");
    if (*Field)
      return error(A.first.Offset, "tolerance '" + Key + "' is given twice",
                   "one value per tolerance");
    *Field = expr(A.second);
  }
  return Error::success();
}

Error PragmaSpecParser::instance(Piece Name, Piece Body) {
  size_t Colon = Body.Text.find(':');
  if (Colon == StringRef::npos)
    return error(Body.Offset, "instance has no name", formOf("instance"));
  StringRef Label = Body.Text.take_front(Colon);
  Piece Inst{Label.trim(), Body.Offset + Label.size() - Label.ltrim().size()};
  if (Error Err = checkName(Inst, "instance"))
    return Err;
  if (Inst.Text == "default" ||
      llvm::any_of(Draft.Instances,
                   [&](const InstanceSpec &I) { return I.Name == Inst.Text; }))
    return error(Inst.Offset, "instance name '" + Inst.Text + "' is taken",
                 "a name other than 'default' and the other instances'");
  auto Items =
      items(Name, {Body.Text.substr(Colon + 1), Body.Offset + Colon + 1});
  if (!Items)
    return Items.takeError();
  InstanceSpec I{Inst.Text.str(), {}, Loc(Inst.Offset)};
  for (Piece Item : *Items) {
    auto A = assignment(Item);
    if (!A)
      return A.takeError();
    if (llvm::any_of(I.Sizes,
                     [&](const auto &S) { return S.first == A->first.Text; }))
      return error(A->first.Offset, "size '" + A->first.Text + "' is set twice",
                   "each size at most once per instance");
    I.Sizes.push_back({A->first.Text.str(), expr(A->second)});
  }
  Draft.Instances.push_back(std::move(I));
  return Error::success();
}
