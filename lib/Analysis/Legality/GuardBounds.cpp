//===- GuardBounds.cpp - what guards say about one variable ---------------===//

#include "optiml/Analysis/Legality/GuardBounds.h"

#include "clang/AST/Expr.h"

using namespace optiml;
using namespace clang;

static BinaryOperatorKind negate(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_LT:
    return BO_GE;
  case BO_LE:
    return BO_GT;
  case BO_GT:
    return BO_LE;
  case BO_GE:
    return BO_LT;
  case BO_EQ:
    return BO_NE;
  default:
    return BO_EQ;
  }
}

/// `a op b` as `b op' a`.
static BinaryOperatorKind mirror(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_LT:
    return BO_GT;
  case BO_LE:
    return BO_GE;
  case BO_GT:
    return BO_LT;
  case BO_GE:
    return BO_LE;
  default:
    return Op;
  }
}

std::optional<VarComparison> optiml::compareOf(
    const GuardTerm &T, const VarDecl &V,
    const std::function<llvm::Expected<IndexPolynomial>(const Expr &)> &Poly) {
  const auto *B = dyn_cast<BinaryOperator>(T.Cond->IgnoreParenImpCasts());
  if (!B || !B->isComparisonOp())
    return std::nullopt;
  auto L = Poly(*B->getLHS()), R = Poly(*B->getRHS());
  if (!L || !R) {
    llvm::consumeError(L.takeError());
    llvm::consumeError(R.takeError());
    return std::nullopt;
  }
  // L op R  <=>  c * v + Rest op 0.
  IndexPolynomial D = *L - *R;
  IndexAtom A = IndexAtom::of(V);
  auto C = D.coefficient(A);
  if (!C || C->mentions([&](const IndexAtom &X) { return X == A; }))
    return std::nullopt;
  std::optional<int64_t> K = C->asConstant();
  if (K != 1 && K != -1)
    return std::nullopt;
  IndexPolynomial Rest = D - *C * IndexPolynomial::atom(A);
  BinaryOperatorKind Op = T.Negated ? negate(B->getOpcode()) : B->getOpcode();
  // v + Rest op 0  =>  v op -Rest;  -v + Rest op 0  =>  v op' Rest.
  if (*K == 1)
    return VarComparison{Op, IndexPolynomial::constant(0) - Rest};
  return VarComparison{mirror(Op), Rest};
}

void VarBounds::add(const VarComparison &C) {
  IndexPolynomial One = IndexPolynomial::constant(1);
  switch (C.Op) {
  case BO_LT:
    return addUpper(C.Bound - One);
  case BO_LE:
    return addUpper(C.Bound);
  case BO_GT:
    return addLower(C.Bound + One);
  case BO_GE:
    return addLower(C.Bound);
  case BO_EQ:
    addLower(C.Bound);
    return addUpper(C.Bound);
  case BO_NE:
    return addNotEqual(C.Bound);
  default:
    return;
  }
}

VarBounds VarBounds::from(
    const VarDecl &V, llvm::ArrayRef<GuardTerm> Terms, bool AtLeastZero,
    const std::function<llvm::Expected<IndexPolynomial>(const Expr &)> &Poly,
    const std::function<bool(const IndexPolynomial &)> &Accept) {
  VarBounds B;
  if (AtLeastZero)
    B.addLower(IndexPolynomial::constant(0));
  for (const GuardTerm &T : Terms)
    if (auto C = compareOf(T, V, Poly); C && (!Accept || Accept(C->Bound)))
      B.add(*C);
  return B;
}

std::vector<IndexPolynomial> VarBounds::tightened(bool Up) const {
  std::vector<IndexPolynomial> Out = Up ? Upper : Lower;
  IndexPolynomial Step = IndexPolynomial::constant(Up ? -1 : 1);
  // Each excluded value can step a bound once; a chain x != 0, x != 1
  // steps twice, so repeat as often as there are exclusions.
  for (size_t Round = 0; Round < NotEqual.size(); ++Round) {
    bool Changed = false;
    for (size_t I = 0, N = Out.size(); I < N; ++I)
      for (const IndexPolynomial &E : NotEqual)
        if (Out[I] == E && !llvm::is_contained(Out, Out[I] + Step)) {
          Out.push_back(Out[I] + Step);
          Changed = true;
        }
    if (!Changed)
      break;
  }
  return Out;
}

bool VarBounds::provesAtLeast(const IndexPolynomial &L) const {
  for (const IndexPolynomial &Have : tightened(false))
    if (auto Gap = (Have - L).asConstant(); Gap && *Gap >= 0)
      return true;
  return false;
}

bool VarBounds::provesAtMost(const IndexPolynomial &U) const {
  for (const IndexPolynomial &Have : tightened(true))
    if (auto Gap = (U - Have).asConstant(); Gap && *Gap >= 0)
      return true;
  return false;
}

bool VarBounds::proves(const VarComparison &C) const {
  IndexPolynomial One = IndexPolynomial::constant(1);
  switch (C.Op) {
  case BO_LT:
    return provesAtMost(C.Bound - One);
  case BO_LE:
    return provesAtMost(C.Bound);
  case BO_GT:
    return provesAtLeast(C.Bound + One);
  case BO_GE:
    return provesAtLeast(C.Bound);
  case BO_EQ:
    return provesAtLeast(C.Bound) && provesAtMost(C.Bound);
  case BO_NE:
    return provesAtLeast(C.Bound + One) || provesAtMost(C.Bound - One) ||
           llvm::is_contained(NotEqual, C.Bound);
  default:
    return false;
  }
}
