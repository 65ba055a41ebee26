//===- CeilDiv.cpp - grid sizes written as ceil(N / B) -------------------===//

#include "optiml/Analysis/Legality/CeilDiv.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"

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

/// Whether \p E is one when N % B leaves a remainder, else zero:
/// `N % B != 0`, `N % B > 0`, `N % B ? 1 : 0`, `(N % B) != 0 ? 1 : 0`.
static bool remainderFlag(const Expr *E, const Expr *N, int64_t B,
                          ASTContext &Ctx) {
  E = strip(E);
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    if (!equals(C->getTrueExpr(), 1, Ctx) || !equals(C->getFalseExpr(), 0, Ctx))
      return false;
    const Expr *Cond = strip(C->getCond());
    if (const BinaryOperator *Rem = binary(Cond, BO_Rem))
      return equals(Rem->getRHS(), B, Ctx) &&
             Expr::isSameComparisonOperand(strip(Rem->getLHS()), N);
    E = Cond;
  }
  const auto *Cmp = dyn_cast<BinaryOperator>(E);
  if (!Cmp || (Cmp->getOpcode() != BO_NE && Cmp->getOpcode() != BO_GT) ||
      !equals(Cmp->getRHS(), 0, Ctx))
    return false;
  const BinaryOperator *Rem = binary(Cmp->getLHS(), BO_Rem);
  return Rem && equals(Rem->getRHS(), B, Ctx) &&
         Expr::isSameComparisonOperand(strip(Rem->getLHS()), N);
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

std::optional<CeilDiv> optiml::matchCeilDiv(const Expr *E, uint64_t Block,
                                            ASTContext &Ctx,
                                            bool AllowTruncating) {
  auto B = static_cast<int64_t>(Block);
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
