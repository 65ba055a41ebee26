//===- CeilDiv.cpp - grid sizes written as ceil(N / B) -------------------===//

#include "optiml/Analysis/Legality/CeilDiv.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

static const Expr *strip(const Expr *E) {
  return LaunchConfig::stripArithmeticCasts(E);
}

static const BinaryOperator *binary(const Expr *E, BinaryOperatorKind Op) {
  const auto *B = dyn_cast<BinaryOperator>(strip(E));
  return B && B->getOpcode() == Op ? B : nullptr;
}

static bool equals(const Expr *E, int64_t Value, ASTContext &Ctx) {
  std::optional<int64_t> V = LaunchConfig::traced(E, Ctx);
  return V && *V == Value;
}

/// Like equals, and also a floating constant of that value (`16.0`), as a
/// divisor in floating point is written.
static bool equalsDivisor(const Expr *E, int64_t Value, ASTContext &Ctx) {
  if (equals(E, Value, Ctx))
    return true;
  llvm::APFloat F(0.0);
  const Expr *S = strip(E);
  return S->getType()->isRealFloatingType() && !S->isValueDependent() &&
         S->EvaluateAsFloat(F, Ctx) &&
         F.compare(llvm::APFloat(F.getSemantics(), std::to_string(Value))) ==
             llvm::APFloat::cmpEqual;
}

/// N, when it is an integer: a float N (`n * 1.5f`) is not a thread count.
static std::optional<CeilDiv> count(const Expr *N, const Expr *Callee = nullptr,
                                    bool Truncates = false) {
  N = strip(N);
  if (!N->getType()->isIntegerType())
    return std::nullopt;
  return CeilDiv{N, Callee, Truncates};
}

/// The N of `N + (B - 1)`, `(B - 1) + N` or `(N + B) - 1`.
static const Expr *countOfRoundUp(const Expr *Sum, int64_t B, ASTContext &Ctx) {
  if (const BinaryOperator *Add = binary(Sum, BO_Add)) {
    // N may be a constant too (`const int n = 1 << 24;`).
    if (equals(Add->getRHS(), B - 1, Ctx))
      return Add->getLHS();
    if (equals(Add->getLHS(), B - 1, Ctx))
      return Add->getRHS();
  }
  if (const BinaryOperator *Sub = binary(Sum, BO_Sub))
    if (equals(Sub->getRHS(), 1, Ctx))
      if (const BinaryOperator *Add = binary(Sub->getLHS(), BO_Add))
        if (equals(Add->getRHS(), B, Ctx))
          return Add->getLHS();
  return nullptr;
}

/// Whether \p E tests N % B: true when \p E is nonzero exactly when the
/// division leaves a remainder (`N % B`, `N % B != 0`, `N % B > 0`), false
/// when exactly when it leaves none (`!(N % B)`, `N % B == 0`); nullopt for
/// anything else.
static std::optional<bool> remainderTest(const Expr *E, const Expr *N,
                                         int64_t B, ASTContext &Ctx) {
  E = strip(E);
  if (const auto *Not = dyn_cast<UnaryOperator>(E);
      Not && Not->getOpcode() == UO_LNot) {
    std::optional<bool> Inner = remainderTest(Not->getSubExpr(), N, B, Ctx);
    return Inner ? std::optional<bool>(!*Inner) : std::nullopt;
  }
  bool HasRemainder = true;
  if (const auto *Cmp = dyn_cast<BinaryOperator>(E);
      Cmp && Cmp->isComparisonOp()) {
    BinaryOperatorKind Op = Cmp->getOpcode();
    if ((Op != BO_NE && Op != BO_GT && Op != BO_EQ) ||
        !equals(Cmp->getRHS(), 0, Ctx))
      return std::nullopt;
    HasRemainder = Op != BO_EQ;
    E = strip(Cmp->getLHS());
  }
  const BinaryOperator *Rem = binary(E, BO_Rem);
  if (!Rem || !equals(Rem->getRHS(), B, Ctx) ||
      !Expr::isSameComparisonOperand(strip(Rem->getLHS()), N))
    return std::nullopt;
  return HasRemainder;
}

/// Whether \p E is one when N % B leaves a remainder, else zero: a
/// remainder test (`N % B != 0`), or a conditional choosing 1 or 0 on one
/// (`N % B ? 1 : 0`, `!(N % B) ? 0 : 1`).
static bool remainderFlag(const Expr *E, const Expr *N, int64_t B,
                          ASTContext &Ctx) {
  E = strip(E);
  const auto *C = dyn_cast<ConditionalOperator>(E);
  if (!C) {
    std::optional<bool> Test = remainderTest(E, N, B, Ctx);
    return Test && *Test;
  }
  std::optional<bool> Test = remainderTest(C->getCond(), N, B, Ctx);
  if (!Test)
    return false;
  const Expr *One = *Test ? C->getTrueExpr() : C->getFalseExpr();
  const Expr *Zero = *Test ? C->getFalseExpr() : C->getTrueExpr();
  return equals(One, 1, Ctx) && equals(Zero, 0, Ctx);
}

static std::optional<CeilDiv> matchCall(const Expr *E, int64_t B,
                                        ASTContext &Ctx) {
  const auto *Call = dyn_cast<CallExpr>(strip(E));
  if (!Call || !Call->getDirectCallee() ||
      !Call->getDirectCallee()->getIdentifier())
    return std::nullopt;
  std::string Name = Call->getDirectCallee()->getName().lower();
  // ceil(N / B) in floating point: `ceil((float)n / block.x)`.
  if (Call->getNumArgs() == 1 && (Name == "ceil" || Name == "ceilf"))
    if (const BinaryOperator *Div = binary(Call->getArg(0), BO_Div))
      if (equalsDivisor(Div->getRHS(), B, Ctx))
        return count(Div->getLHS());
  if (Call->getNumArgs() != 2 || (!llvm::StringRef(Name).contains("div") &&
                                  !llvm::StringRef(Name).contains("ceil")))
    return std::nullopt;
  if (!equals(Call->getArg(1), B, Ctx))
    return std::nullopt;
  return count(Call->getArg(0), Call->getCallee());
}

/// Whether \p E means the same wherever the function holding it goes on
/// to use it: it reads only variables nothing changes, and no global that
/// is not const.
static bool readsOnlyUnchanged(const Expr &E, ASTContext &Ctx) {
  const FunctionDecl *F = enclosingFunction(E, Ctx);
  return F && llvm::all_of(nodesOf<DeclRefExpr>(&E), [&](const DeclRefExpr *R) {
           const auto *V = dyn_cast<VarDecl>(R->getDecl());
           if (!V)
             return true; // A function, an enumerator.
           if (!V->isLocalVarDecl() && !isa<ParmVarDecl>(V))
             return V->getType().isConstQualified();
           return isNeverChanged(*V, *F, Ctx);
         });
}

static std::optional<CeilDiv>
matchWritten(const Expr *E, int64_t B, ASTContext &Ctx, bool AllowTruncating) {
  if (const BinaryOperator *Div = binary(E, BO_Div))
    if (equals(Div->getRHS(), B, Ctx)) {
      if (const Expr *N = countOfRoundUp(Div->getLHS(), B, Ctx))
        return count(N);
      if (AllowTruncating)
        return count(Div->getLHS(), nullptr, /*Truncates=*/true);
    }
  if (const BinaryOperator *Add = binary(E, BO_Add)) {
    // (N - 1) / B + 1
    if (equals(Add->getRHS(), 1, Ctx))
      if (const BinaryOperator *Div = binary(Add->getLHS(), BO_Div))
        if (equals(Div->getRHS(), B, Ctx))
          if (const BinaryOperator *Sub = binary(Div->getLHS(), BO_Sub))
            if (equals(Sub->getRHS(), 1, Ctx))
              return count(Sub->getLHS());
    // N / B + (N % B != 0)
    if (const BinaryOperator *Div = binary(Add->getLHS(), BO_Div))
      if (equals(Div->getRHS(), B, Ctx) &&
          remainderFlag(Add->getRHS(), strip(Div->getLHS()), B, Ctx))
        return count(Div->getLHS());
  }
  return matchCall(E, B, Ctx);
}

std::optional<CeilDiv> optiml::matchCeilDiv(const Expr *E, uint64_t Block,
                                            ASTContext &Ctx,
                                            bool AllowTruncating) {
  auto B = static_cast<int64_t>(Block);
  if (std::optional<CeilDiv> C = matchWritten(E, B, Ctx, AllowTruncating))
    return C;
  // A variable computed a few lines up (`int gridXY = N / B + ...;`), whose
  // N can then be written where the variable is.
  const auto *Ref = dyn_cast<DeclRefExpr>(strip(E));
  const Expr *Init = Ref ? LaunchConfig::initialValue(*Ref, Ctx) : nullptr;
  if (!Init || !readsOnlyUnchanged(*Init, Ctx))
    return std::nullopt;
  return matchWritten(Init, B, Ctx, AllowTruncating);
}
