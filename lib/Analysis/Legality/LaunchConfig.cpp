//===- LaunchConfig.cpp - the grid and block of a <<<>>> launch ----------===//

#include "optiml/Analysis/Legality/LaunchConfig.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/AST/ExprCXX.h"

using namespace optiml;
using namespace clang;

/// Looks through what turns a written value into a dim3 argument: implicit
/// casts, temporaries, copies and `dim3(x)` casts.
static const Expr *strip(const Expr *E) {
  while (true) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (Construct && Construct->getNumArgs() == 1 &&
        Construct->getConstructor()->isCopyOrMoveConstructor()) {
      E = Construct->getArg(0);
      continue;
    }
    return E;
  }
}

std::optional<int64_t> LaunchConfig::constant(const Expr *E,
                                              const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

void LaunchConfig::resolveValue(const Expr *E, ConfigOperand &Op,
                                ASTContext &Ctx, bool FollowVar) {
  E = strip(E);
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (Var && FollowVar && Var->isLocalVarDecl() && Var->getInit() &&
      !constant(E, Ctx)) {
    const FunctionDecl *F = enclosingFunction(*Ref, Ctx);
    if (!F || !F->getBody()) {
      Op.Unknown = "'" + Var->getName().str() + "' is not in a function body";
      return;
    }
    for (const DeclRefExpr *Use : usesOf(*Var, *F->getBody(), Ctx))
      if (!isPureRead(*Use, Ctx)) {
        Op.Unknown = "'" + Var->getName().str() +
                     "' may be changed after its declaration";
        return;
      }
    Op.Var = Var;
    resolveValue(Var->getInit(), Op, Ctx, /*FollowVar=*/false);
    return;
  }
  const auto *Construct = dyn_cast<CXXConstructExpr>(E);
  if (Construct && Construct->getParenOrBraceRange().isValid()) {
    Op.IsDim3 = true;
    Op.Construct = Construct;
    for (const Expr *A : Construct->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        Op.Dims.push_back(A);
    return;
  }
  if (Construct && Construct->getNumArgs() >= 1) {
    // An integer converted to dim3: trace the integer.
    const Expr *Value = Construct->getArg(0)->IgnoreParenImpCasts();
    if (FollowVar && isa<DeclRefExpr>(Value))
      return resolveValue(Value, Op, Ctx, FollowVar);
    Op.Dims.push_back(Construct->getArg(0));
    return;
  }
  if (E->getType()->isIntegerType()) {
    Op.Dims.push_back(E);
    return;
  }
  Op.Unknown = "the operand is neither an integer, dim3(...), nor a local "
               "variable initialized with one";
}

ConfigOperand LaunchConfig::operand(const CUDAKernelCallExpr &Call,
                                    unsigned Index, ASTContext &Ctx) {
  ConfigOperand Op;
  const CallExpr *Config = Call.getConfig();
  if (!Config || Index >= Config->getNumArgs()) {
    Op.Unknown = "the launch has no such operand";
    return Op;
  }
  Op.Arg = Config->getArg(Index);
  resolveValue(Op.Arg, Op, Ctx, /*FollowVar=*/true);
  return Op;
}

std::optional<std::array<uint64_t, 3>>
LaunchConfig::evaluate(const ConfigOperand &Op, ASTContext &Ctx) {
  if (Op.Dims.empty() || Op.Dims.size() > 3)
    return std::nullopt;
  std::array<uint64_t, 3> Out = {1, 1, 1};
  for (size_t I = 0; I < Op.Dims.size(); ++I) {
    std::optional<int64_t> V = traced(Op.Dims[I], Ctx);
    if (!V || *V <= 0)
      return std::nullopt;
    Out[I] = static_cast<uint64_t>(*V);
  }
  return Out;
}

const Expr *LaunchConfig::stripArithmeticCasts(const Expr *E) {
  return withoutValueCasts(E);
}

/// The initializer of the local variable \p Ref names when the variable
/// never changes after it (so its value there is its value everywhere).
const Expr *LaunchConfig::initialValue(const DeclRefExpr &Ref,
                                       ASTContext &Ctx) {
  const auto *Var = dyn_cast<VarDecl>(Ref.getDecl());
  if (!Var || !Var->isLocalVarDecl() || !Var->getInit())
    return nullptr;
  const auto *F = dyn_cast<FunctionDecl>(Var->getDeclContext());
  if (!F || !F->getBody())
    return nullptr;
  for (const DeclRefExpr *Use : usesOf(*Var, *F->getBody(), Ctx))
    if (!isPureRead(*Use, Ctx))
      return nullptr;
  return Var->getInit();
}

std::optional<int64_t> LaunchConfig::traced(const Expr *E, ASTContext &Ctx) {
  return traced(E, Ctx, 0);
}

std::optional<int64_t> LaunchConfig::traced(const Expr *E, ASTContext &Ctx,
                                            unsigned Depth) {
  if (!E || Depth > 8)
    return std::nullopt;
  if (std::optional<int64_t> C = constant(E, Ctx))
    return C;
  E = stripArithmeticCasts(E);
  if (!E->getType()->isIntegerType() && !E->getType()->isRecordType())
    return std::nullopt;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(strip(E))) {
    if (!Ref->getType()->isIntegerType())
      return std::nullopt;
    return traced(initialValue(*Ref, Ctx), Ctx, Depth + 1);
  }
  // `block.x` of a local `dim3 block(32, 8)`.
  if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow()) {
    const auto *Base = dyn_cast<DeclRefExpr>(strip(M->getBase()));
    llvm::StringRef Member = M->getMemberDecl()->getName();
    unsigned Axis = Member == "x"   ? 0
                    : Member == "y" ? 1
                    : Member == "z" ? 2
                                    : 3;
    if (!Base || Axis > 2 || !initialValue(*Base, Ctx))
      return std::nullopt;
    ConfigOperand Op;
    resolveValue(Base, Op, Ctx, /*FollowVar=*/true);
    if (!Op.IsDim3 || Op.Dims.empty())
      return std::nullopt;
    return Axis < Op.Dims.size() ? traced(Op.Dims[Axis], Ctx, Depth + 1)
                                 : std::optional<int64_t>(1);
  }
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return std::nullopt;
  std::optional<int64_t> L = traced(B->getLHS(), Ctx, Depth + 1);
  std::optional<int64_t> R = traced(B->getRHS(), Ctx, Depth + 1);
  if (!L || !R)
    return std::nullopt;
  switch (B->getOpcode()) {
  case BO_Add:
    return *L + *R;
  case BO_Sub:
    return *L - *R;
  case BO_Mul:
    return *L * *R;
  case BO_Div:
    return *R ? std::optional<int64_t>(*L / *R) : std::nullopt;
  case BO_Rem:
    return *R ? std::optional<int64_t>(*L % *R) : std::nullopt;
  case BO_Shl:
    return *R >= 0 && *R < 62 ? std::optional<int64_t>(*L << *R) : std::nullopt;
  default:
    return std::nullopt;
  }
}
