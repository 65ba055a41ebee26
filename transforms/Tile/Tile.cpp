//===- Tile.cpp - strip-mine a for-loop into tiles -----------------------===//
//
// `for (int i = lo; i < n; ++i) BODY` becomes a loop over tiles of S
// iterations and a loop within the tile:
//
//   for (int optiml_i_t = lo; optiml_i_t < n; optiml_i_t += S)
//     for (int i = optiml_i_t; i < optiml_i_t + S && i < n; ++i) BODY
//
// The same iterations run in the same order (TileLegality); the fixed-size
// inner loop is what unroll, hoist or a later staging step can work on.
//
//===----------------------------------------------------------------------===//

#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/KernelIdentifiers.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/TransformFactories.h"

#include "optiml/Analysis/SourceText.h"
#include "transforms/Tile/TileLegality.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet> emit(const Site &S, const CanonicalLoop &L,
                                    int64_t Size, ASTContext &Ctx);

/// The two loop headers that replace \p L's header.
static std::pair<std::string, std::string> headers(const CanonicalLoop &L,
                                                   llvm::StringRef TileVar,
                                                   int64_t Size,
                                                   ASTContext &Ctx);

/// Indents by two more spaces every line of the body that starts below
/// the header, now that it sits in the intra-tile loop.
static llvm::Error indentBody(const ForStmt &For, EditSet &Edits,
                              ASTContext &Ctx);

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  int64_t Size = P.getInt("size");
  auto L = TileLegality::check(*S.Loop, S.Name, Size, Ctx);
  if (!L)
    return L.takeError();
  return Rewrite([S, L = *L, Size, &Ctx] { return emit(S, L, Size, Ctx); });
}

/// `optiml_i_t`, or `optiml_i_t1`, ... when the kernel already uses it.
static std::string tileVarName(const VarDecl &IV, const FunctionDecl &Kernel,
                               ASTContext &Ctx) {
  llvm::StringSet<> Used = identifiersOf(Kernel, Ctx);
  std::string Base = ("optiml_" + IV.getName() + "_t").str();
  std::string Name = Base;
  for (unsigned N = 1; Used.contains(Name); ++N)
    Name = Base + std::to_string(N);
  return Name;
}

/// Whether \p E must be parenthesized as the right operand of `<`.
static bool needsParens(const Expr *E) {
  E = E->IgnoreImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAdditiveOp() && !B->isMultiplicativeOp() && !B->isShiftOp();
  return isa<AbstractConditionalOperator>(E);
}

static std::pair<std::string, std::string> headers(const CanonicalLoop &L,
                                                   llvm::StringRef V,
                                                   int64_t Size,
                                                   ASTContext &Ctx) {
  const ForStmt &For = *L.For;
  std::string Type =
      L.IV->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
  std::string IV = L.IV->getName().str();
  std::string Bound = textOf(L.Bound->getSourceRange(), Ctx);
  if (needsParens(L.Bound))
    Bound = "(" + Bound + ")";
  std::string S = std::to_string(Size);
  bool Declared = isa<DeclStmt>(For.getInit());
  // An IV declared before the loop keeps its final value: assign it the
  // lower bound as the original init did (the loop may run zero times).
  std::string Outer = "for (" + Type + " " + V.str() + " = " +
                      (Declared ? "" : IV + " = ") +
                      textOf(L.Lower->getSourceRange(), Ctx) + "; " + V.str() +
                      (L.Cmp == BO_LE ? " <= " : " < ") + Bound + "; " +
                      V.str() + " += " + S + ")";
  std::string Inner = "for (" + (Declared ? Type + " " : "") + IV + " = " +
                      V.str() + "; " + IV + " < " + V.str() + " + " + S +
                      " && " + textOf(For.getCond()->getSourceRange(), Ctx) +
                      "; " + textOf(For.getInc()->getSourceRange(), Ctx) + ")";
  return {Outer, Inner};
}

/// The [begin, end) offsets of the string literals under \p S: lines that
/// start inside one must not be indented.
static void stringRanges(const Stmt *S, const SourceManager &SM,
                         std::vector<std::pair<unsigned, unsigned>> &Out) {
  if (!S)
    return;
  if (isa<StringLiteral>(S))
    Out.push_back(
        {offsetOf(S->getBeginLoc(), SM), offsetOf(S->getEndLoc(), SM)});
  for (const Stmt *Child : S->children())
    stringRanges(Child, SM, Out);
}

static llvm::Error indentBody(const ForStmt &For, EditSet &Edits,
                              ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  unsigned From = offsetOf(For.getRParenLoc(), SM);
  unsigned To = offsetOf(For.getEndLoc(), SM);
  std::vector<std::pair<unsigned, unsigned>> Strings;
  stringRanges(For.getBody(), SM, Strings);
  for (size_t NL = Buffer.find('\n', From); NL < To;
       NL = Buffer.find('\n', NL + 1)) {
    unsigned Line = NL + 1;
    llvm::StringRef Rest = Buffer.substr(Line);
    if (Rest.empty() ||
        Rest.take_until([](char C) { return C == '\n'; }).trim().empty())
      continue;
    if (llvm::any_of(Strings, [&](auto R) {
          return R.first < Line && Line <= R.second;
        }))
      continue;
    if (llvm::Error E = Edits.addText(SM, Line, 0, "  "))
      return E;
  }
  return llvm::Error::success();
}

static llvm::Expected<EditSet> emit(const Site &S, const CanonicalLoop &L,
                                    int64_t Size, ASTContext &Ctx) {
  const ForStmt &For = *L.For;
  std::string V = tileVarName(*L.IV, *S.Kernel, Ctx);
  auto [Outer, Inner] = headers(L, V, Size, Ctx);

  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Indent;
  unsigned Begin = offsetOf(For.getBeginLoc(), SM);
  bool OwnLine =
      lineStartOf(SM.getBufferData(SM.getMainFileID()), Begin, Indent) +
          Indent.size() ==
      Begin;
  std::string Text = OwnLine ? Outer + "\n" + Indent.str() + "  " + Inner
                             : Outer + " " + Inner;
  SourceRange Header(For.getBeginLoc(), For.getRParenLoc());
  RangeSelector HeaderRange =
      [Header](const ast_matchers::MatchFinder::MatchResult &)
      -> llvm::Expected<CharSourceRange> {
    return CharSourceRange::getTokenRange(Header);
  };
  EditSet Edits;
  if (llvm::Error E = Edits.add(For, changeTo(HeaderRange, cat(Text)), Ctx))
    return E;
  if (OwnLine)
    if (llvm::Error E = indentBody(For, Edits, Ctx))
      return E;
  return Edits;
}

std::unique_ptr<Transform> optiml::createTile(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
