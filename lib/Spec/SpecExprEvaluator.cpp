//===- SpecExprEvaluator.cpp - numbers from spec expressions -------------===//
//
// A recursive-descent parser that evaluates as it parses: spec expressions
// are tiny and evaluated a handful of times, so there is no tree to keep.
//
//===----------------------------------------------------------------------===//

#include "optiml/Spec/SpecExprEvaluator.h"
#include "optiml/Spec/SpecDiagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <limits>

using namespace optiml;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace {

enum class TokKind { End, Number, Name, Op, LParen, RParen, Comma };

struct Token {
  TokKind Kind = TokKind::End;
  StringRef Text;
  size_t Offset = 0;
  SpecValue Value;
};

class ExprParser {
public:
  ExprParser(const SpecExpr &E, const std::map<std::string, int64_t> &Sizes)
      : E(E), Text(E.Text), Sizes(Sizes) {}

  Expected<SpecValue> run();

private:
  Error lex();
  Error lexNumber();
  Expected<SpecValue> parseLevel(Expected<SpecValue> (ExprParser::*Next)(),
                                 std::initializer_list<StringRef> Ops);
  Expected<SpecValue> parseShift();
  Expected<SpecValue> parseAdditive();
  Expected<SpecValue> parseMultiplicative();
  Expected<SpecValue> parseUnary();
  Expected<SpecValue> parsePrimary();
  Expected<SpecValue> parseName();
  Expected<SpecValue> parseCall(const Token &Name);
  /// An error once parentheses, calls and unary signs nest deeper than any
  /// spec needs: the parser recurses, and a mark of ten thousand '(' must
  /// be a one-line error, not a stack overflow.
  Error enter(size_t Offset);
  Expected<SpecValue> apply(const Token &Op, SpecValue L, SpecValue R);
  Expected<SpecValue> applyInteger(const Token &Op, int64_t L, int64_t R);
  Expected<SpecValue> applyReal(const Token &Op, double L, double R);
  Expected<SpecValue> ceilDiv(const Token &At, SpecValue A, SpecValue B);

  unsigned Depth = 0;
  static constexpr unsigned MaxDepth = 100;

  bool isOp(StringRef Op) const {
    return Tok.Kind == TokKind::Op && Tok.Text == Op;
  }
  std::string describe(const Token &T) const {
    return T.Kind == TokKind::End ? "end of expression"
                                  : ("'" + T.Text + "'").str();
  }
  Error error(size_t Offset, const llvm::Twine &What,
              const llvm::Twine &Expected) const {
    // The position says where; a long expression is quoted by its start.
    std::string Quoted =
        Text.size() > 80 ? (Text.take_front(77) + "...").str() : Text.str();
    return specError(shifted(E.Pos, Offset), What + " in '" + Quoted + "'",
                     Expected);
  }

  const SpecExpr &E;
  StringRef Text;
  const std::map<std::string, int64_t> &Sizes;
  size_t Cursor = 0;
  Token Tok;
};

} // namespace

static bool isNameChar(char C) { return llvm::isAlnum(C) || C == '_'; }

Error ExprParser::lex() {
  while (Cursor < Text.size() && llvm::isSpace(Text[Cursor]))
    ++Cursor;
  Tok = Token();
  Tok.Offset = Cursor;
  if (Cursor == Text.size())
    return Error::success();
  char C = Text[Cursor];
  bool StartsNumber =
      llvm::isDigit(C) ||
      (C == '.' && Cursor + 1 < Text.size() && llvm::isDigit(Text[Cursor + 1]));
  if (StartsNumber)
    return lexNumber();
  if (llvm::isAlpha(C) || C == '_') {
    size_t End = Cursor;
    while (End < Text.size() && isNameChar(Text[End]))
      ++End;
    Tok.Kind = TokKind::Name;
    Tok.Text = Text.slice(Cursor, End);
    Cursor = End;
    return Error::success();
  }
  StringRef Rest = Text.substr(Cursor);
  if (Rest.starts_with("<<") || Rest.starts_with(">>")) {
    Tok = {TokKind::Op, Rest.take_front(2), Cursor, {}};
    Cursor += 2;
    return Error::success();
  }
  static constexpr StringRef Singles = "+-*/%(),";
  if (Singles.contains(C)) {
    TokKind Kind = C == '('   ? TokKind::LParen
                   : C == ')' ? TokKind::RParen
                   : C == ',' ? TokKind::Comma
                              : TokKind::Op;
    Tok = {Kind, Rest.take_front(1), Cursor, {}};
    ++Cursor;
    return Error::success();
  }
  return error(Cursor, "unexpected character '" + Rest.take_front(1) + "'",
               "numbers, sizes, + - * / % << >>, parentheses, ceil_div, "
               "min or max");
}

Error ExprParser::lexNumber() {
  size_t Start = Cursor, I = Cursor;
  auto Digits = [&](auto Pred) {
    while (I < Text.size() && Pred(Text[I]))
      ++I;
  };
  auto IsDec = [](char C) { return llvm::isDigit(C); };
  bool Hex = Text.substr(I).starts_with_insensitive("0x");
  bool Real = false;
  if (Hex) {
    I += 2;
    Digits([](char C) { return llvm::isHexDigit(C); });
  } else {
    Digits(IsDec);
    if (I < Text.size() && Text[I] == '.') {
      Real = true;
      ++I;
      Digits(IsDec);
    }
    if (I < Text.size() && (Text[I] == 'e' || Text[I] == 'E')) {
      size_t J = I + 1;
      if (J < Text.size() && (Text[J] == '+' || Text[J] == '-'))
        ++J;
      if (J < Text.size() && llvm::isDigit(Text[J])) {
        Real = true;
        I = J;
        Digits(IsDec);
      }
    }
  }
  StringRef Literal = Text.slice(Start, I);
  // C suffixes (2.5f, 16u, 1ull) are accepted so that values can be copied
  // from code; they do not change the value.
  Digits([&](char C) {
    return Real ? (C == 'f' || C == 'F') : StringRef("uUlL").contains(C);
  });
  Tok.Kind = TokKind::Number;
  Tok.Text = Text.slice(Start, I);
  Cursor = I;
  if ((I < Text.size() && (isNameChar(Text[I]) || Text[I] == '.')) ||
      (Hex && Literal.size() == 2))
    return error(
        Start, "malformed number '" + Text.substr(Start).take_while([](char C) {
          return isNameChar(C) || C == '.';
        }) + "'",
        "a decimal, 0x hexadecimal or floating literal");
  if (Real) {
    Tok.Value = SpecValue::real(std::strtod(Literal.str().c_str(), nullptr));
    return Error::success();
  }
  if (!Hex && Literal.size() > 1 && Literal[0] == '0')
    return error(Start, "octal literal '" + Literal + "'",
                 "a decimal or 0x hexadecimal integer");
  uint64_t V = 0;
  if (Literal.substr(Hex ? 2 : 0).getAsInteger(Hex ? 16 : 10, V) ||
      V > uint64_t(std::numeric_limits<int64_t>::max()))
    return error(Start,
                 "integer literal '" + Literal + "' does not fit in 64 bits",
                 "at most 9223372036854775807");
  Tok.Value = SpecValue::integer(int64_t(V));
  return Error::success();
}

Expected<SpecValue> ExprParser::run() {
  if (Error Err = lex())
    return Err;
  if (Tok.Kind == TokKind::End)
    return error(0, "empty expression", "a number or an expression of sizes");
  auto V = parseShift();
  if (!V)
    return V.takeError();
  if (Tok.Kind != TokKind::End)
    return error(Tok.Offset, "unexpected " + describe(Tok),
                 "an operator or the end of the expression");
  return V;
}

/// One level of left-associative binary operators: \p Ops are this level's
/// operators, \p Next parses their operands (the next tighter level).
Expected<SpecValue>
ExprParser::parseLevel(Expected<SpecValue> (ExprParser::*Next)(),
                       std::initializer_list<StringRef> Ops) {
  auto L = (this->*Next)();
  while (L && Tok.Kind == TokKind::Op && llvm::is_contained(Ops, Tok.Text)) {
    Token Op = Tok;
    if (Error Err = lex())
      return Err;
    auto R = (this->*Next)();
    if (!R)
      return R.takeError();
    L = apply(Op, *L, *R);
  }
  return L;
}

Error ExprParser::enter(size_t Offset) {
  if (++Depth <= MaxDepth)
    return Error::success();
  return error(Offset,
               "the expression nests more than " + llvm::Twine(MaxDepth) +
                   " levels deep",
               "an expression with fewer nested parentheses, calls and signs");
}

Expected<SpecValue> ExprParser::parseShift() {
  if (Error Err = enter(Tok.Offset))
    return Err;
  auto V = parseLevel(&ExprParser::parseAdditive, {"<<", ">>"});
  --Depth;
  return V;
}

Expected<SpecValue> ExprParser::parseAdditive() {
  return parseLevel(&ExprParser::parseMultiplicative, {"+", "-"});
}

Expected<SpecValue> ExprParser::parseMultiplicative() {
  return parseLevel(&ExprParser::parseUnary, {"*", "/", "%"});
}

Expected<SpecValue> ExprParser::parseUnary() {
  if (!isOp("-") && !isOp("+"))
    return parsePrimary();
  Token Op = Tok;
  if (Error Err = lex())
    return Err;
  if (Error Err = enter(Op.Offset))
    return Err;
  auto V = parseUnary();
  --Depth;
  if (!V || Op.Text == "+")
    return V;
  if (!V->IsInteger)
    return SpecValue::real(-V->Real);
  if (V->Int == std::numeric_limits<int64_t>::min())
    return error(Op.Offset, "integer overflow in '-'",
                 "values that fit in 64 bits");
  return SpecValue::integer(-V->Int);
}

Expected<SpecValue> ExprParser::parsePrimary() {
  Token T = Tok;
  switch (T.Kind) {
  case TokKind::Number:
    if (Error Err = lex())
      return Err;
    return T.Value;
  case TokKind::Name:
    return parseName();
  case TokKind::LParen: {
    if (Error Err = lex())
      return Err;
    auto V = parseShift();
    if (!V)
      return V.takeError();
    if (Tok.Kind != TokKind::RParen)
      return error(Tok.Offset, "unexpected " + describe(Tok),
                   "')' closing the '(' at column " +
                       llvm::Twine(E.Pos.Column + T.Offset));
    if (Error Err = lex())
      return Err;
    return V;
  }
  default:
    return error(T.Offset, "unexpected " + describe(T),
                 "a number, a size name or '('");
  }
}

Expected<SpecValue> ExprParser::parseName() {
  Token Name = Tok;
  if (Error Err = lex())
    return Err;
  if (Tok.Kind == TokKind::LParen)
    return parseCall(Name);
  auto It = Sizes.find(Name.Text.str());
  if (It != Sizes.end())
    return SpecValue::integer(It->second);
  std::vector<std::string> Known;
  for (const auto &[Size, Value] : Sizes)
    Known.push_back(Size);
  return error(Name.Offset, "unknown size '" + Name.Text + "'",
               Known.empty()
                   ? std::string("a number (sizes cannot be used here)")
                   : "one of the sizes " + llvm::join(Known, ", "));
}

Expected<SpecValue> ExprParser::parseCall(const Token &Name) {
  if (Name.Text != "ceil_div" && Name.Text != "min" && Name.Text != "max")
    return error(Name.Offset, "unknown function '" + Name.Text + "'",
                 "ceil_div(a, b), min(a, b) or max(a, b)");
  std::vector<SpecValue> Args;
  do {
    if (Error Err = lex())
      return Err;
    auto V = parseShift();
    if (!V)
      return V.takeError();
    Args.push_back(*V);
  } while (Tok.Kind == TokKind::Comma);
  if (Tok.Kind != TokKind::RParen || Args.size() != 2)
    return error(Tok.Offset,
                 "unexpected " + describe(Tok) + " in call of '" + Name.Text +
                     "'",
                 "two arguments: " + Name.Text + "(a, b)");
  if (Error Err = lex())
    return Err;
  SpecValue A = Args[0], B = Args[1];
  if (Name.Text == "ceil_div")
    return ceilDiv(Name, A, B);
  bool Less =
      A.IsInteger && B.IsInteger ? A.Int < B.Int : A.toDouble() < B.toDouble();
  bool TakeA = Name.Text == "min" ? Less : !Less;
  SpecValue R = TakeA ? A : B;
  return A.IsInteger && B.IsInteger ? R : SpecValue::real(R.toDouble());
}

Expected<SpecValue> ExprParser::ceilDiv(const Token &At, SpecValue A,
                                        SpecValue B) {
  if (!A.IsInteger || !B.IsInteger)
    return error(At.Offset, "ceil_div of a floating value",
                 "integer arguments");
  if (B.Int == 0)
    return error(At.Offset, "division by zero", "a non-zero divisor");
  if (A.Int == std::numeric_limits<int64_t>::min() && B.Int == -1)
    return error(At.Offset, "integer overflow in 'ceil_div'",
                 "values that fit in 64 bits");
  int64_t Q = A.Int / B.Int, R = A.Int % B.Int;
  if (R != 0 && ((R < 0) == (B.Int < 0)))
    ++Q;
  return SpecValue::integer(Q);
}

Expected<SpecValue> ExprParser::apply(const Token &Op, SpecValue L,
                                      SpecValue R) {
  if (L.IsInteger && R.IsInteger)
    return applyInteger(Op, L.Int, R.Int);
  if (Op.Text == "%" || Op.Text == "<<" || Op.Text == ">>")
    return error(Op.Offset, "'" + Op.Text + "' of a floating value",
                 "integer operands");
  return applyReal(Op, L.toDouble(), R.toDouble());
}

Expected<SpecValue> ExprParser::applyInteger(const Token &Op, int64_t L,
                                             int64_t R) {
  constexpr int64_t Min = std::numeric_limits<int64_t>::min();
  int64_t Out = 0;
  bool Overflow = false;
  char C = Op.Text[0];
  if (C == '+')
    Overflow = __builtin_add_overflow(L, R, &Out);
  else if (C == '-')
    Overflow = __builtin_sub_overflow(L, R, &Out);
  else if (C == '*')
    Overflow = __builtin_mul_overflow(L, R, &Out);
  else if (C == '/' || C == '%') {
    if (R == 0)
      return error(Op.Offset, "division by zero", "a non-zero divisor");
    Overflow = L == Min && R == -1;
    Out = Overflow ? 0 : (C == '/' ? L / R : L % R);
  } else {
    if (R < 0 || R > 63)
      return error(Op.Offset, "shift by " + llvm::Twine(R),
                   "a shift count from 0 to 63");
    if (C == '<' && L < 0)
      return error(Op.Offset, "left shift of a negative value",
                   "a non-negative left operand");
    Overflow = C == '<' && (L >> (63 - R)) != 0;
    Out = C == '<' ? int64_t(uint64_t(L) << R) : L >> R;
  }
  if (Overflow)
    return error(Op.Offset, "integer overflow in '" + Op.Text + "'",
                 "values that fit in 64 bits");
  return SpecValue::integer(Out);
}

Expected<SpecValue> ExprParser::applyReal(const Token &Op, double L, double R) {
  char C = Op.Text[0];
  if (C == '/' && R == 0)
    return error(Op.Offset, "division by zero", "a non-zero divisor");
  double Out = C == '+' ? L + R : C == '-' ? L - R : C == '*' ? L * R : L / R;
  if (!std::isfinite(Out))
    return error(Op.Offset, "floating overflow in '" + Op.Text + "'",
                 "a finite result");
  return SpecValue::real(Out);
}

Expected<SpecValue> SpecExprEvaluator::evaluate(const SpecExpr &E) const {
  return ExprParser(E, Sizes).run();
}

Expected<int64_t> SpecExprEvaluator::evaluateInteger(const SpecExpr &E,
                                                     StringRef What) const {
  auto V = evaluate(E);
  if (!V)
    return V.takeError();
  if (!V->IsInteger)
    return specError(E.Pos,
                     What + " '" + E.Text + "' is the floating value " +
                         numberText(V->Real),
                     "an integer expression");
  return V->Int;
}
