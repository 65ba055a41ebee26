//===- IndexPolynomial.cpp - an array index as a polynomial --------------===//

#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Support/Error.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

std::string IndexAtom::str() const {
  if (Var)
    return Var->getName().str();
  return BuiltinRef{Builtin, Dim}.str();
}

bool IndexAtom::operator<(const IndexAtom &O) const {
  // Built-ins first, in a fixed order; variables by name, then identity, so
  // that printed polynomials do not depend on allocation addresses.
  if ((Var == nullptr) != (O.Var == nullptr))
    return Var == nullptr;
  if (!Var)
    return std::tie(Builtin, Dim) < std::tie(O.Builtin, O.Dim);
  if (Var->getName() != O.Var->getName())
    return Var->getName() < O.Var->getName();
  return Var->getBeginLoc().getRawEncoding() <
         O.Var->getBeginLoc().getRawEncoding();
}

IndexPolynomial IndexPolynomial::constant(int64_t C) {
  IndexPolynomial P;
  if (C != 0)
    P.Terms[{}] = C;
  return P;
}

IndexPolynomial IndexPolynomial::atom(IndexAtom A) {
  IndexPolynomial P;
  P.Terms[{A}] = 1;
  return P;
}

IndexPolynomial IndexPolynomial::operator+(const IndexPolynomial &O) const {
  IndexPolynomial R = *this;
  for (const auto &[M, C] : O.Terms)
    if ((R.Terms[M] += C) == 0)
      R.Terms.erase(M);
  return R;
}

IndexPolynomial IndexPolynomial::operator-(const IndexPolynomial &O) const {
  return *this + O * constant(-1);
}

IndexPolynomial IndexPolynomial::operator*(const IndexPolynomial &O) const {
  IndexPolynomial R;
  for (const auto &[M1, C1] : Terms)
    for (const auto &[M2, C2] : O.Terms) {
      Monomial M = M1;
      M.insert(M.end(), M2.begin(), M2.end());
      llvm::sort(M);
      if ((R.Terms[M] += C1 * C2) == 0)
        R.Terms.erase(M);
    }
  return R;
}

std::optional<int64_t> IndexPolynomial::asConstant() const {
  if (Terms.empty())
    return 0;
  if (Terms.size() == 1 && Terms.begin()->first.empty())
    return Terms.begin()->second;
  return std::nullopt;
}

bool IndexPolynomial::hasNegativeTerm() const {
  return llvm::any_of(Terms, [](const auto &T) { return T.second < 0; });
}

bool IndexPolynomial::mentions(
    const std::function<bool(const IndexAtom &)> &P) const {
  for (const auto &[M, C] : Terms)
    if (llvm::any_of(M, P))
      return true;
  return false;
}

std::optional<IndexPolynomial>
IndexPolynomial::coefficient(const IndexAtom &A) const {
  IndexPolynomial R;
  for (const auto &[M, C] : Terms) {
    auto N = llvm::count(M, A);
    if (N > 1)
      return std::nullopt;
    if (N == 0)
      continue;
    Monomial Rest = M;
    Rest.erase(llvm::find(Rest, A));
    R.Terms[Rest] = C;
  }
  return R;
}

IndexPolynomial
IndexPolynomial::select(const std::function<bool(const Monomial &)> &P) const {
  IndexPolynomial R;
  for (const auto &[M, C] : Terms)
    if (P(M))
      R.Terms[M] = C;
  return R;
}

IndexPolynomial IndexPolynomial::substitute(const IndexAtom &A,
                                            const IndexPolynomial &By) const {
  IndexPolynomial R;
  for (const auto &[M, C] : Terms) {
    IndexPolynomial Term = constant(C);
    for (const IndexAtom &X : M)
      Term = Term * (X == A ? By : atom(X));
    R = R + Term;
  }
  return R;
}

std::string IndexPolynomial::str(
    const std::function<std::string(const IndexAtom &)> &Name) const {
  if (Terms.empty())
    return "0";
  std::string Out;
  for (const auto &[M, C] : Terms) {
    std::vector<std::string> Factors;
    int64_t Abs = C < 0 ? -C : C;
    if (Abs != 1 || M.empty())
      Factors.push_back(std::to_string(Abs));
    for (const IndexAtom &A : M)
      Factors.push_back(Name ? Name(A) : A.str());
    std::string Term = llvm::join(Factors, " * ");
    if (Out.empty())
      Out = (C < 0 ? "-" : "") + Term;
    else
      Out += (C < 0 ? " - " : " + ") + Term;
  }
  return Out;
}

namespace {

/// Builds the polynomial of an expression, expanding single-definition
/// locals; the recursion depth is bounded by the chain of definitions.
class Builder {
public:
  Builder(ASTContext &Ctx, const std::function<bool(const VarDecl &)> &Expand)
      : Ctx(Ctx), Expand(Expand) {}

  llvm::Expected<IndexPolynomial> build(const Expr *E);

private:
  llvm::Expected<IndexPolynomial> var(const VarDecl &V, const Expr &Where);
  llvm::Expected<IndexPolynomial> binary(const BinaryOperator &B);
  llvm::Error notAffine(const Expr &E, llvm::StringRef Why) {
    return makeError(ErrorKind::NotApplicable,
                     "the index is not a polynomial of thread and loop "
                     "indices: " +
                         llvm::Twine(Why));
  }

  ASTContext &Ctx;
  const std::function<bool(const VarDecl &)> &Expand;
  unsigned Depth = 0;
};

} // namespace

llvm::Expected<IndexPolynomial> Builder::build(const Expr *E) {
  E = E->IgnoreParens();
  if (auto B = asBuiltinRef(E))
    return IndexPolynomial::atom(IndexAtom::of(*B));
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (Cast->getType()->isIntegerType() &&
        Cast->getSubExpr()->getType()->isIntegerType())
      return build(Cast->getSubExpr());
    return notAffine(*E, "a conversion to a non-integer type");
  }
  if (const auto *Lit = dyn_cast<IntegerLiteral>(E))
    return IndexPolynomial::constant(Lit->getValue().getSExtValue());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
      return var(*V, *E);
    return notAffine(*E, "'" + Ref->getDecl()->getNameAsString() +
                             "' is not a variable");
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus) {
      auto Sub = build(U->getSubExpr());
      if (!Sub || U->getOpcode() == UO_Plus)
        return Sub;
      return IndexPolynomial::constant(-1) * *Sub;
    }
    return notAffine(*E, "a unary operator");
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return binary(*B);
  return notAffine(*E, std::string("a ") + E->getStmtClassName());
}

llvm::Expected<IndexPolynomial> Builder::binary(const BinaryOperator &B) {
  auto L = build(B.getLHS());
  if (!L)
    return L.takeError();
  auto R = build(B.getRHS());
  if (!R)
    return R.takeError();
  switch (B.getOpcode()) {
  case BO_Add:
    return *L + *R;
  case BO_Sub:
    return *L - *R;
  case BO_Mul:
    return *L * *R;
  case BO_Shl:
    if (auto C = R->asConstant(); C && *C >= 0 && *C < 31)
      return *L * IndexPolynomial::constant(int64_t(1) << *C);
    return notAffine(B, "a shift by a non-constant amount");
  default:
    return notAffine(B, ("operator '" + B.getOpcodeStr() + "'").str());
  }
}

llvm::Expected<IndexPolynomial> Builder::var(const VarDecl &V,
                                             const Expr &Where) {
  if (!V.getType()->isIntegerType())
    return notAffine(Where, "'" + V.getName().str() + "' is not an integer");
  const auto *F = dyn_cast<FunctionDecl>(V.getDeclContext());
  bool Local = V.isLocalVarDecl() && V.hasInit() && F && F->getBody();
  if (!Local || (Expand && !Expand(V)) || Depth > 16 ||
      isReassigned(V, *F->getBody(), Ctx))
    return IndexPolynomial::atom(IndexAtom::of(V));
  ++Depth;
  auto P = build(V.getInit());
  --Depth;
  if (!P) {
    // A local defined by something else (a load, a division) is an opaque
    // value of its own.
    llvm::consumeError(P.takeError());
    return IndexPolynomial::atom(IndexAtom::of(V));
  }
  return P;
}

llvm::Expected<IndexPolynomial>
IndexPolynomial::of(const Expr &E, ASTContext &Ctx,
                    const std::function<bool(const VarDecl &)> &Expand) {
  Builder B(Ctx, Expand);
  return B.build(&E);
}

bool optiml::isReassigned(const VarDecl &Var, const Stmt &Scope,
                          ASTContext &Ctx) {
  for (const DeclRefExpr *Use : usesOf(Var, Scope, Ctx))
    if (!isPureRead(*Use, Ctx))
      return true;
  return false;
}
