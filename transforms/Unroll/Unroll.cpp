//===- Unroll.cpp - unroll a for-loop, by pragma or by hand --------------===//
//
// mode=pragma asks the compiler to unroll a loop F times. The pragma cannot
// change what the loop computes (the compiler handles the remainder), so
// legality is only about where it can be written (UnrollLegality).
//
// mode=explicit writes the F copies of the body into the source, with a
// remainder loop, for loops the compiler would not unroll as asked; the
// copies must do what the iterations did (ExplicitUnrollLegality), and
// ExplicitUnrollPrinter writes them.
//
//===----------------------------------------------------------------------===//

#include "ExplicitUnrollPrinter.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/KernelIdentifiers.h"
#include "optiml/Rewrite/SourceSnippet.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/TransformFactories.h"

#include "transforms/Unroll/ExplicitUnrollLegality.h"
#include "transforms/Unroll/UnrollLegality.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet>
emitPragma(const Stmt &Loop, const std::string &Pragma, ASTContext &Ctx);

static llvm::Expected<EditSet> emitExplicit(const FunctionDecl &K,
                                            const ExplicitUnrollPlan &Plan,
                                            ASTContext &Ctx);

/// A step that leaves `mode` out means the pragma: steps written before the
/// parameter existed keep their meaning and their spelling.
static bool isExplicit(const ParamValues &P) {
  return P.get("mode") == "explicit";
}

/// Whether \p S is a grid-stride loop that explicit unrolling takes at
/// \p Factor.
static bool isUnrollableThreadStride(const Site &S, int64_t Factor,
                                     ASTContext &Ctx) {
  auto Plan = ExplicitUnrollLegality::check(*S.Loop, S.Name, Factor, Ctx);
  if (!Plan) {
    llvm::consumeError(Plan.takeError());
    return false;
  }
  return Plan->Loop.ThreadStride != nullptr;
}

/// The factor only: `mode` is spelled in a step only when given, so
/// default steps read as they did before the parameter existed.
static ParamValues defaults(const TransformDescriptor &, ParamValues Declared,
                            const Site &, ASTContext &) {
  ParamValues V;
  V.set("factor", Declared.get("factor"));
  return V;
}

/// The smallest factor of \p D's domain that unrolls all \p Trips
/// iterations, or nothing when none does.
static std::optional<std::string> fullFactor(const TransformDescriptor &D,
                                             int64_t Trips) {
  for (const ParamSpec &P : D.Params)
    if (P.Name == "factor")
      for (const std::string &F : P.Domain)
        if (std::stoll(F) >= Trips)
          return F;
  return std::nullopt;
}

/// Counts the loops below \p S, and those of them without a constant trip
/// count.
static void countInnerLoops(const Stmt &S, ASTContext &Ctx, unsigned &Loops,
                            unsigned &Unknown) {
  for (const Stmt *Child : S.children()) {
    if (!Child)
      continue;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Child)) {
      ++Loops;
      if (!constantTripCount(*Child, Ctx))
        ++Unknown;
    }
    countInnerLoops(*Child, Ctx, Loops, Unknown);
  }
}

/// Whether \p Loop holds loops and every loop it holds has a constant trip
/// count: unrolled fully, such a nest is straight-line code whose indices
/// are constants (a stencil's or a filter's window).
static bool isConstantNest(const Stmt &Loop, ASTContext &Ctx) {
  unsigned Loops = 0, Unknown = 0;
  countInnerLoops(Loop, Ctx, Loops, Unknown);
  return Loops > 0 && Unknown == 0;
}

/// The outer loop of a constant nest is unrolled fully: nvcc unrolls a
/// short innermost loop of known trip count by itself (a covering factor
/// there builds the original's code again), but not the loops around it, and
/// `#pragma unroll 4` on a 7-trip outer loop would leave its loop test and
/// half the window's indices unknown. A grid-stride loop gets the explicit
/// mode: the pragma does not give the compiler F iterations without a test
/// between them (the trip count is unknown), so the copies written out are
/// the move worth measuring.
static ParamValues suggest(const TransformDescriptor &D, ParamValues V,
                           const Site &S, ASTContext &Ctx) {
  if (!S.Loop)
    return V;
  auto Trips = constantTripCount(*S.Loop, Ctx);
  if (Trips && *Trips > V.getInt("factor") && isConstantNest(*S.Loop, Ctx))
    if (auto Full = fullFactor(D, *Trips))
      V.set("factor", *Full);
  if (isUnrollableThreadStride(S, V.getInt("factor"), Ctx))
    V.set("mode", "explicit");
  return V;
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  if (!isExplicit(P)) {
    if (llvm::Error E = UnrollLegality::check(*S.Loop, S.Name, Ctx))
      return E;
    std::string Pragma = "#pragma unroll " + P.get("factor").str();
    return Rewrite([&Loop = *S.Loop, Pragma, &Ctx] {
      return emitPragma(Loop, Pragma, Ctx);
    });
  }
  return Rewrite::of(
      ExplicitUnrollLegality::check(*S.Loop, S.Name, P.getInt("factor"), Ctx),
      [&K = *S.Kernel, &Ctx](const auto &Plan) {
        return emitExplicit(K, Plan, Ctx);
      });
}

/// `optiml_i_u` (\p Suffix "u"), or `optiml_i_u1`, ... when the kernel
/// already uses it.
static std::string freshName(const VarDecl &IV, llvm::StringRef Suffix,
                             const FunctionDecl &Kernel, ASTContext &Ctx) {
  llvm::StringSet<> Used = identifiersOf(Kernel, Ctx);
  std::string Base = ("optiml_" + IV.getName() + "_" + Suffix).str();
  std::string Name = Base;
  for (unsigned N = 1; Used.contains(Name); ++N)
    Name = Base + std::to_string(N);
  return Name;
}

static llvm::Expected<EditSet> emitExplicit(const FunctionDecl &K,
                                            const ExplicitUnrollPlan &Plan,
                                            ASTContext &Ctx) {
  const ForStmt &For = *Plan.Loop.For;
  const VarDecl &IV = *Plan.Loop.IV;
  auto Text = ExplicitUnrollPrinter(Plan, freshName(IV, "u", K, Ctx),
                                    freshName(IV, "s", K, Ctx), Ctx)
                  .print();
  if (!Text)
    return Text.takeError();
  auto Begin = SourceSnippet::offsetOf(For.getBeginLoc(), Ctx);
  if (!Begin)
    return Begin.takeError();
  auto End = SourceSnippet::endOffset(For, Ctx);
  if (!End)
    return End.takeError();
  // The loop through its last `;` or `}`.
  CharSourceRange Whole = CharSourceRange::getCharRange(
      For.getBeginLoc(), For.getBeginLoc().getLocWithOffset(*End - *Begin));
  RangeSelector Range = [Whole](const ast_matchers::MatchFinder::MatchResult &)
      -> llvm::Expected<CharSourceRange> { return Whole; };
  EditSet Edits;
  if (llvm::Error E = Edits.add(For, changeTo(Range, cat(*Text)), Ctx))
    return E;
  return Edits;
}

static llvm::Expected<EditSet>
emitPragma(const Stmt &Loop, const std::string &Pragma, ASTContext &Ctx) {
  EditSet Edits;
  if (llvm::Error E =
          Edits.add(Loop, insertLineAbove(EditSet::Root.str(), Pragma), Ctx))
    return E;
  return Edits;
}

std::unique_ptr<Transform> optiml::createUnroll(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan, defaults,
                                             suggest);
}
