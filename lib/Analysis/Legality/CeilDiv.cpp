//===- CeilDiv.cpp - grid sizes written as ceil(N / B) -------------------===//

#include "optiml/Analysis/Legality/CeilDiv.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"

#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

static const BinaryOperator *binary(const Expr *E, BinaryOperatorKind Op) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  return B && B->getOpcode() == Op ? B : nullptr;
}

static bool equals(const Expr *E, int64_t Value, const ASTContext &Ctx) {
  std::optional<int64_t> V = LaunchConfig::constant(E, Ctx);
  return V && *V == Value;
}

/// The N of `N + (B - 1)`, `(B - 1) + N` or `(N + B) - 1`.
static const Expr *countOfRoundUp(const Expr *Sum, int64_t B,
                                  const ASTContext &Ctx) {
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

static std::optional<CeilDiv> matchCall(const Expr *E, int64_t B,
                                        const ASTContext &Ctx) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  if (!Call || Call->getNumArgs() != 2 || !Call->getDirectCallee() ||
      !Call->getDirectCallee()->getIdentifier())
    return std::nullopt;
  std::string Name = Call->getDirectCallee()->getName().lower();
  if (!llvm::StringRef(Name).contains("div") &&
      !llvm::StringRef(Name).contains("ceil"))
    return std::nullopt;
  if (!equals(Call->getArg(1), B, Ctx))
    return std::nullopt;
  return CeilDiv{Call->getArg(0), Call->getCallee()};
}

std::optional<CeilDiv> optiml::matchCeilDiv(const Expr *E, uint64_t Block,
                                            const ASTContext &Ctx) {
  auto B = static_cast<int64_t>(Block);
  if (const BinaryOperator *Div = binary(E, BO_Div))
    if (equals(Div->getRHS(), B, Ctx))
      if (const Expr *N = countOfRoundUp(Div->getLHS(), B, Ctx))
        return CeilDiv{N, nullptr};
  // (N - 1) / B + 1
  if (const BinaryOperator *Add = binary(E, BO_Add))
    if (equals(Add->getRHS(), 1, Ctx))
      if (const BinaryOperator *Div = binary(Add->getLHS(), BO_Div))
        if (equals(Div->getRHS(), B, Ctx))
          if (const BinaryOperator *Sub = binary(Div->getLHS(), BO_Sub))
            if (equals(Sub->getRHS(), 1, Ctx))
              return CeilDiv{Sub->getLHS(), nullptr};
  return matchCall(E, B, Ctx);
}
