//===- LoopInfo.cpp - canonical for-loops and loop invariance ------------===//

#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/ThreadGeometry.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace optiml;
using namespace clang;

//===----------------------------------------------------------------------===//
// Pure math calls
//===----------------------------------------------------------------------===//

static const llvm::StringSet<> &pureMathNames() {
  static const llvm::StringSet<> Names = {
      "abs",        "labs",      "llabs",     "min",        "max",
      "umin",       "umax",      "llmin",     "llmax",      "ullmin",
      "ullmax",     "fabs",      "fabsf",     "fmin",       "fminf",
      "fmax",       "fmaxf",     "sqrt",      "sqrtf",      "rsqrt",
      "rsqrtf",     "cbrt",      "cbrtf",     "exp",        "expf",
      "exp2",       "exp2f",     "exp10",     "exp10f",     "expm1",
      "expm1f",     "log",       "logf",      "log2",       "log2f",
      "log10",      "log10f",    "log1p",     "log1pf",     "pow",
      "powf",       "sin",       "sinf",      "cos",        "cosf",
      "tan",        "tanf",      "sinh",      "sinhf",      "cosh",
      "coshf",      "tanh",      "tanhf",     "asin",       "asinf",
      "acos",       "acosf",     "atan",      "atanf",      "atan2",
      "atan2f",     "floor",     "floorf",    "ceil",       "ceilf",
      "round",      "roundf",    "trunc",     "truncf",     "rint",
      "rintf",      "lrint",     "lrintf",    "llrint",     "llrintf",
      "lround",     "lroundf",   "llround",   "llroundf",   "fma",
      "fmaf",       "fmod",      "fmodf",     "copysign",   "copysignf",
      "hypot",      "hypotf",    "erf",       "erff",       "__mul24",
      "__umul24",   "__mulhi",   "__umulhi",  "__mul64hi",  "__umul64hi",
      "__clz",      "__clzll",   "__popc",    "__popcll",   "__ffs",
      "__ffsll",    "__brev",    "__brevll",  "__sad",      "__usad",
      "__expf",     "__logf",    "__log2f",   "__log10f",   "__sinf",
      "__cosf",     "__tanf",    "__powf",    "__fdividef", "__saturatef",
      "__fsqrt_rn", "__frcp_rn", "__fmaf_rn", "__fmul_rn",  "__fadd_rn",
      // What INFINITY, HUGE_VALF and NAN expand to.
      "__builtin_huge_valf", "__builtin_huge_val", "__builtin_inff",
      "__builtin_inf", "__builtin_nanf", "__builtin_nan"};
  return Names;
}

bool optiml::isPureMathCall(const CallExpr &Call, const ASTContext &Ctx) {
  const FunctionDecl *F = Call.getDirectCallee();
  if (!F || !F->getIdentifier() || !pureMathNames().contains(F->getName()))
    return false;
  // A user's own `min` may do anything; the library's are declared in
  // system headers (or are compiler builtins).
  return F->getBuiltinID() != 0 ||
         Ctx.getSourceManager().isInSystemHeader(F->getLocation());
}

//===----------------------------------------------------------------------===//
// What a loop may change
//===----------------------------------------------------------------------===//

namespace {

/// The variables a loop declares or assigns, and whether it may write
/// memory (stores through pointers, calls, asm).
class LoopEffects {
public:
  LoopEffects(const Stmt &Loop, ASTContext &Ctx) : Ctx(Ctx) {
    walk(&Loop);
    if (const FunctionDecl *F = enclosingFunction(Loop, Ctx))
      findEscapes(F->getBody());
  }

  bool declares(const VarDecl *V) const { return Declared.contains(V); }
  bool assigns(const VarDecl *V) const { return Assigned.contains(V); }
  bool writesMemory() const { return MemoryWrite; }
  /// Whether reading \p V reads memory that a store through a pointer may
  /// change: globals and __shared__ variables, references, and locals whose
  /// address is taken.
  bool inMemory(const VarDecl *V) const {
    if (V->getType()->isReferenceType() || Escaped.contains(V))
      return true;
    if (!V->hasGlobalStorage())
      return false;
    // Device code cannot write __constant__ memory nor const objects.
    return !V->hasAttr<CUDAConstantAttr>() && !V->getType().isConstQualified();
  }

private:
  void walk(const Stmt *S);
  void noteWrite(const Expr *Target);
  void findEscapes(const Stmt *S);

  ASTContext &Ctx;
  llvm::SmallPtrSet<const VarDecl *, 8> Declared, Assigned, Escaped;
  bool MemoryWrite = false;
};

} // namespace

/// The variable that \p E names, through parentheses and `.member`.
static const VarDecl *namedVar(const Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow()) {
      E = M->getBase();
      continue;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  }
}

void LoopEffects::noteWrite(const Expr *Target) {
  const VarDecl *V = namedVar(Target);
  // A local (non-reference) variable is a register, not memory; its
  // assignment is recorded by the reference walk.
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType())
    MemoryWrite = true;
}

void LoopEffects::walk(const Stmt *S) {
  if (!S || isBuiltinRefNode(S))
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        Declared.insert(V);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
      if (!isPureRead(*Ref, Ctx))
        Assigned.insert(V);
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    noteWrite(B->getLHS());
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->isIncrementDecrementOp())
    noteWrite(U->getSubExpr());
  if (const auto *Call = dyn_cast<CallExpr>(S);
      Call && !isPureMathCall(*Call, Ctx))
    MemoryWrite = true;
  if (const auto *C = dyn_cast<CXXConstructExpr>(S);
      C && !C->getConstructor()->isTrivial())
    MemoryWrite = true;
  if (isa<CXXNewExpr, CXXDeleteExpr, AsmStmt>(S))
    MemoryWrite = true;
  for (const Stmt *Child : S->children())
    walk(Child);
}

/// Whether \p Ref is the target of an assignment or increment (through
/// parentheses and `.member`), as opposed to having its address taken.
static bool isAssignedDirectly(const DeclRefExpr &Ref, ASTContext &Ctx) {
  auto [User, Child] = lvalueUser(Ref, Ctx, /*ThroughConstCasts=*/false);
  if (const auto *B = User.get<BinaryOperator>())
    return B->isAssignmentOp() && B->getLHS() == Child;
  if (const auto *U = User.get<UnaryOperator>())
    return U->isIncrementDecrementOp();
  return false;
}

void LoopEffects::findEscapes(const Stmt *S) {
  if (!S || isBuiltinRefNode(S))
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
      if (V->hasLocalStorage() && !isPureRead(*Ref, Ctx) &&
          !isAssignedDirectly(*Ref, Ctx))
        Escaped.insert(V);
  for (const Stmt *Child : S->children())
    findEscapes(Child);
}

//===----------------------------------------------------------------------===//
// Invariance
//===----------------------------------------------------------------------===//

namespace {

/// Finds the first part of an expression that may change while the loop
/// runs.
class VarianceFinder {
public:
  VarianceFinder(const Stmt &Loop, ASTContext &Ctx)
      : Effects(Loop, Ctx), Ctx(Ctx) {}

  std::optional<LoopVariance> find(const Expr *E) const;

private:
  std::optional<LoopVariance> findInChildren(const Expr *E) const;
  std::optional<LoopVariance> varRead(const DeclRefExpr &Ref) const;
  std::optional<LoopVariance> memoryRead(const Expr *E) const;

  LoopEffects Effects;
  ASTContext &Ctx;
};

} // namespace

static LoopVariance variance(const Expr *Where, const llvm::Twine &Reason) {
  return LoopVariance{Where, Reason.str()};
}

std::optional<LoopVariance>
VarianceFinder::findInChildren(const Expr *E) const {
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (auto V = find(CE))
        return V;
  return std::nullopt;
}

std::optional<LoopVariance>
VarianceFinder::varRead(const DeclRefExpr &Ref) const {
  const ValueDecl *D = Ref.getDecl();
  if (isa<EnumConstantDecl, NonTypeTemplateParmDecl, FunctionDecl>(D))
    return std::nullopt;
  const auto *V = dyn_cast<VarDecl>(D);
  if (!V)
    return variance(&Ref, "reads '" + D->getName() +
                              "', which is not a variable OptiML follows");
  llvm::StringRef Name = V->getName();
  if (Effects.assigns(V))
    return variance(&Ref,
                    "reads '" + Name + "', which is assigned in the loop");
  if (Effects.declares(V))
    return variance(&Ref,
                    "reads '" + Name + "', which is declared in the loop");
  if (V->getType().isVolatileQualified())
    return variance(&Ref, "reads volatile '" + Name + "'");
  if (Effects.inMemory(V) && Effects.writesMemory())
    return variance(&Ref, "reads '" + Name +
                              "', which is in memory that the loop may write");
  return std::nullopt;
}

std::optional<LoopVariance> VarianceFinder::memoryRead(const Expr *E) const {
  if (Effects.writesMemory())
    return variance(E, "reads memory that the loop may write");
  return findInChildren(E);
}

std::optional<LoopVariance> VarianceFinder::find(const Expr *E) const {
  if (!E || isBuiltinRefNode(E))
    return std::nullopt;
  if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          CXXNullPtrLiteralExpr, StringLiteral, UnaryExprOrTypeTraitExpr,
          CXXThisExpr, SubstNonTypeTemplateParmExpr>(E))
    return std::nullopt; // sizeof's operand is not evaluated.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return varRead(*Ref);
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->isIncrementDecrementOp())
      return variance(E, "has a side effect");
    if (U->getOpcode() == UO_Deref)
      return memoryRead(E);
    return findInChildren(E);
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAssignmentOp())
      return variance(E, "has a side effect");
    return findInChildren(E);
  }
  if (isa<ArraySubscriptExpr>(E))
    return memoryRead(E);
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return M->isArrow() ? memoryRead(E) : findInChildren(E);
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (!isPureMathCall(*Call, Ctx)) {
      const FunctionDecl *F = Call->getDirectCallee();
      return variance(E, F && F->getIdentifier()
                             ? "calls '" + F->getName() + "'"
                             : llvm::Twine("calls a function"));
    }
    return findInChildren(E);
  }
  if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
    if (!C->getConstructor()->isTrivial())
      return variance(E, "calls a constructor");
    return findInChildren(E);
  }
  if (isa<ParenExpr, CastExpr, AbstractConditionalOperator, ConstantExpr,
          ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
          InitListExpr, OpaqueValueExpr>(E)) {
    if (const auto *O = dyn_cast<OpaqueValueExpr>(E))
      return find(O->getSourceExpr());
    return findInChildren(E);
  }
  if (E->isTypeDependent() || E->isValueDependent())
    return variance(E, "depends on a template parameter in a way OptiML "
                       "does not follow");
  return variance(E, llvm::Twine("contains a ") + E->getStmtClassName() +
                         ", which OptiML does not follow");
}

std::optional<LoopVariance>
optiml::whyLoopVariant(const Expr &E, const Stmt &Loop, ASTContext &Ctx) {
  return VarianceFinder(Loop, Ctx).find(&E);
}

bool optiml::isLoopInvariant(const Expr &E, const Stmt &Loop, ASTContext &Ctx) {
  return !whyLoopVariant(E, Loop, Ctx);
}

//===----------------------------------------------------------------------===//
// Canonical loops
//===----------------------------------------------------------------------===//

/// The variable \p E names (parentheses and implicit casts aside).

static std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || R.Val.getInt().getSignificantBits() > 64)
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

static bool isIntegerVar(const VarDecl &V) {
  QualType T = V.getType();
  return !T->isDependentType() && T->isIntegerType() && !T->isBooleanType();
}

/// The IV and its initial value from the loop's init statement.
static llvm::Error readInit(const ForStmt &For, CanonicalLoop &L,
                            ASTContext &Ctx) {
  const Stmt *Init = For.getInit();
  if (!Init)
    return notApplicableAt(For.getBeginLoc(), Ctx,
                           "the loop has no initialization of an induction "
                           "variable");
  if (const auto *DS = dyn_cast<DeclStmt>(Init)) {
    if (!DS->isSingleDecl())
      return notApplicableAt(Init->getBeginLoc(), Ctx,
                             "the initialization declares more than one "
                             "variable");
    const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!V || !V->getInit())
      return notApplicableAt(Init->getBeginLoc(), Ctx,
                             "the initialization does not give an induction "
                             "variable its first value");
    L.IV = V, L.Lower = V->getInit();
  } else if (const auto *B = dyn_cast<BinaryOperator>(Init);
             B && B->getOpcode() == BO_Assign && referencedVar(B->getLHS()) &&
             isa<DeclRefExpr>(B->getLHS()->IgnoreParens())) {
    L.IV = referencedVar(B->getLHS()), L.Lower = B->getRHS();
    if (!L.IV->hasLocalStorage() || L.IV->getType()->isReferenceType())
      return notApplicableAt(Init->getBeginLoc(), Ctx,
                             "the induction variable '" + L.IV->getName() +
                                 "' is not a local variable");
  } else {
    return notApplicableAt(Init->getBeginLoc(), Ctx,
                           "the initialization does not set a single "
                           "induction variable");
  }
  if (!isIntegerVar(*L.IV))
    return notApplicableAt(Init->getBeginLoc(), Ctx,
                           "the induction variable '" + L.IV->getName() +
                               "' is not an integer");
  return llvm::Error::success();
}

static BinaryOperatorKind mirrored(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_LT:
    return BO_GT;
  case BO_GT:
    return BO_LT;
  case BO_LE:
    return BO_GE;
  case BO_GE:
    return BO_LE;
  default:
    return Op;
  }
}

/// The comparison and the bound from the loop's condition.
static llvm::Error readCond(const ForStmt &For, CanonicalLoop &L,
                            ASTContext &Ctx) {
  const Expr *Cond = For.getCond();
  if (!Cond)
    return notApplicableAt(For.getBeginLoc(), Ctx, "the loop has no condition");
  const auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  BinaryOperatorKind Op = B ? B->getOpcode() : BO_Comma;
  bool Compares =
      Op == BO_LT || Op == BO_LE || Op == BO_GT || Op == BO_GE || Op == BO_NE;
  if (Compares && referencedVar(B->getLHS()) == L.IV &&
      isa<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts())) {
    L.Cmp = Op, L.Bound = B->getRHS();
  } else if (Compares && referencedVar(B->getRHS()) == L.IV &&
             isa<DeclRefExpr>(B->getRHS()->IgnoreParenImpCasts())) {
    L.Cmp = mirrored(Op), L.Bound = B->getLHS();
  } else {
    return notApplicableAt(Cond->getBeginLoc(), Ctx,
                           "the condition is not a comparison (<, <=, >, >=, "
                           "!=) of '" +
                               L.IV->getName() + "' with a bound");
  }
  return llvm::Error::success();
}

/// The constant step of `++i`, `i--`, `i += k`, `i -= k`, `i = i + k`,
/// `i = k + i`, `i = i - k`.
static std::optional<int64_t> stepOf(const Expr *Inc, const VarDecl *IV,
                                     ASTContext &Ctx) {
  Inc = Inc->IgnoreParenImpCasts();
  auto IsIV = [&](const Expr *E) {
    return referencedVar(E) == IV && isa<DeclRefExpr>(E->IgnoreParenImpCasts());
  };
  if (const auto *U = dyn_cast<UnaryOperator>(Inc)) {
    if (!U->isIncrementDecrementOp() || !IsIV(U->getSubExpr()))
      return std::nullopt;
    return U->isIncrementOp() ? 1 : -1;
  }
  const auto *B = dyn_cast<BinaryOperator>(Inc);
  if (!B || !IsIV(B->getLHS()))
    return std::nullopt;
  std::optional<int64_t> K;
  if (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign) {
    K = constantOf(B->getRHS(), Ctx);
    if (K && B->getOpcode() == BO_SubAssign)
      K = -*K;
    return K;
  }
  if (B->getOpcode() != BO_Assign)
    return std::nullopt;
  const auto *Sum =
      dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
  if (!Sum)
    return std::nullopt;
  if (Sum->getOpcode() == BO_Add && IsIV(Sum->getLHS()))
    return constantOf(Sum->getRHS(), Ctx);
  if (Sum->getOpcode() == BO_Add && IsIV(Sum->getRHS()))
    return constantOf(Sum->getLHS(), Ctx);
  if (Sum->getOpcode() == BO_Sub && IsIV(Sum->getLHS()))
    if ((K = constantOf(Sum->getRHS(), Ctx)))
      return -*K;
  return std::nullopt;
}

/// Whether \p S is the grid's or the block's thread count along some
/// dimension (`blockDim.x * gridDim.x`, `blockDim.y`), written out or held
/// by a local that is never changed (`int stride = blockDim.x *
/// gridDim.x;`).
static bool isThreadStride(const Expr &S, ASTContext &Ctx) {
  const Expr *E = &S;
  if (const VarDecl *V = referencedVar(E)) {
    const FunctionDecl *F = enclosingFunction(*E, Ctx);
    if (!V->isLocalVarDecl() || !V->getInit() || !F ||
        !isNeverChanged(*V, *F, Ctx))
      return false;
    E = V->getInit();
  }
  if (std::optional<BuiltinRef> B =
          asBuiltinRef(withoutValueCasts(E, /*IntegersOnly=*/true));
      B && B->Which == BuiltinRef::BlockDim)
    return true;
  for (unsigned Dim = 0; Dim < 3; ++Dim)
    if (isGridThreadCount(*E, Dim))
      return true;
  return false;
}

/// S of `i += S` or `i = i + S` / `i = S + i` when S is the grid's thread
/// or the block's thread count (isThreadStride), or null.
static const Expr *threadStrideOf(const Expr *Inc, const VarDecl *IV,
                                  ASTContext &Ctx) {
  const auto *B = dyn_cast<BinaryOperator>(Inc->IgnoreParenImpCasts());
  if (!B || referencedVar(B->getLHS()) != IV)
    return nullptr;
  const Expr *S = nullptr;
  if (B->getOpcode() == BO_AddAssign)
    S = B->getRHS();
  else if (const auto *Sum =
               dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
           B->getOpcode() == BO_Assign && Sum && Sum->getOpcode() == BO_Add)
    S = referencedVar(Sum->getLHS()) == IV   ? Sum->getRHS()
        : referencedVar(Sum->getRHS()) == IV ? Sum->getLHS()
                                             : nullptr;
  return S && isThreadStride(*S, Ctx) ? S : nullptr;
}

static llvm::Error readStep(const ForStmt &For, CanonicalLoop &L,
                            bool AllowThreadStride, ASTContext &Ctx) {
  const Expr *Inc = For.getInc();
  if (!Inc)
    return notApplicableAt(For.getBeginLoc(), Ctx, "the loop has no increment");
  if (AllowThreadStride)
    if ((L.ThreadStride = threadStrideOf(Inc, L.IV, Ctx)))
      return llvm::Error::success();
  std::optional<int64_t> Step = stepOf(Inc, L.IV, Ctx);
  if (!Step)
    return notApplicableAt(Inc->getBeginLoc(), Ctx,
                           "the increment is not a constant add or subtract "
                           "on '" +
                               L.IV->getName() + "'");
  if (*Step == 0)
    return notApplicableAt(Inc->getBeginLoc(), Ctx, "the step is zero");
  L.Step = *Step;
  return llvm::Error::success();
}

/// Success when the body only reads the IV, and nothing can write it
/// through a pointer.
static llvm::Error checkIVUses(const ForStmt &For, const CanonicalLoop &L,
                               ASTContext &Ctx) {
  for (const DeclRefExpr *Ref : usesOf(*L.IV, *For.getBody(), Ctx))
    if (!isPureRead(*Ref, Ctx))
      return notApplicableAt(Ref->getBeginLoc(), Ctx,
                             "the induction variable '" + L.IV->getName() +
                                 "' is assigned in the body");
  // An IV declared before the loop may have had its address taken there.
  if (const FunctionDecl *F = enclosingFunction(For, Ctx);
      F && !isa<DeclStmt>(For.getInit()))
    for (const DeclRefExpr *Ref : usesOf(*L.IV, *F->getBody(), Ctx))
      if (!isPureRead(*Ref, Ctx) && !isAssignedDirectly(*Ref, Ctx))
        return notApplicableAt(Ref->getBeginLoc(), Ctx,
                               "the induction variable '" + L.IV->getName() +
                                   "' has its address taken");
  return llvm::Error::success();
}

namespace {
/// The range of an integer type, wide enough for 64-bit unsigned.
struct IntRange {
  __int128 Min, Max;
  bool contains(__int128 V) const { return Min <= V && V <= Max; }
};
} // namespace

static IntRange rangeOf(QualType T, const ASTContext &Ctx) {
  unsigned Bits = Ctx.getIntWidth(T);
  if (T->isSignedIntegerOrEnumerationType())
    return {-(__int128(1) << (Bits - 1)), (__int128(1) << (Bits - 1)) - 1};
  return {0, (__int128(1) << Bits) - 1};
}

/// How many times the loop runs, by exact arithmetic, or nothing when it
/// would run until the IV wraps around (or overflows).
static std::optional<__int128> exactTrips(BinaryOperatorKind Cmp,
                                          __int128 Lower, __int128 Bound,
                                          __int128 Step) {
  switch (Cmp) {
  case BO_LT:
    if (Lower >= Bound)
      return 0;
    return Step > 0 ? std::optional((Bound - Lower + Step - 1) / Step)
                    : std::nullopt;
  case BO_LE:
    if (Lower > Bound)
      return 0;
    return Step > 0 ? std::optional((Bound - Lower) / Step + 1) : std::nullopt;
  case BO_GT:
    if (Lower <= Bound)
      return 0;
    return Step < 0 ? std::optional((Lower - Bound - Step - 1) / -Step)
                    : std::nullopt;
  case BO_GE:
    if (Lower < Bound)
      return 0;
    return Step < 0 ? std::optional((Lower - Bound) / -Step + 1) : std::nullopt;
  default: // BO_NE
    if ((Bound - Lower) % Step != 0 || (Bound - Lower) / Step < 0)
      return std::nullopt;
    return (Bound - Lower) / Step;
  }
}

static std::optional<int64_t> tripCount(const CanonicalLoop &L,
                                        ASTContext &Ctx) {
  if (L.ThreadStride)
    return std::nullopt;
  std::optional<int64_t> Lower = constantOf(L.Lower, Ctx);
  std::optional<int64_t> Bound = constantOf(L.Bound, Ctx);
  if (!Lower || !Bound)
    return std::nullopt;
  std::optional<__int128> N = exactTrips(L.Cmp, *Lower, *Bound, L.Step);
  if (!N || *N > INT64_MAX)
    return std::nullopt;
  // Every value the IV takes, up to the one that ends the loop, must be
  // representable in the IV's type and in the type the comparison is done
  // in (`i < 10u` compares unsigned); otherwise the loop wraps around.
  __int128 Last = *Lower + *N * L.Step;
  QualType CmpType =
      cast<BinaryOperator>(L.For->getCond()->IgnoreParenImpCasts())
          ->getLHS()
          ->getType();
  for (QualType T : {L.IV->getType(), CmpType}) {
    if (!T->isIntegerType())
      return std::nullopt;
    IntRange R = rangeOf(T, Ctx);
    if (!R.contains(*Lower) || !R.contains(*Bound) || !R.contains(Last))
      return std::nullopt;
  }
  return static_cast<int64_t>(*N);
}

llvm::Expected<CanonicalLoop> optiml::analyzeLoop(const ForStmt &For,
                                                  ASTContext &Ctx,
                                                  bool AllowThreadStride) {
  CanonicalLoop L;
  L.For = &For;
  if (llvm::Error E = readInit(For, L, Ctx))
    return E;
  if (llvm::Error E = readCond(For, L, Ctx))
    return E;
  if (llvm::Error E = readStep(For, L, AllowThreadStride, Ctx))
    return E;
  if (llvm::Error E = checkIVUses(For, L, Ctx))
    return E;
  // The bound is re-evaluated before every iteration: it must read the same
  // value each time.
  if (auto Why = whyLoopVariant(*L.Bound, For, Ctx))
    return notApplicableAt(Why->Where->getBeginLoc(), Ctx,
                           "the bound " + Why->Reason);
  L.TripCount = tripCount(L, Ctx);
  return L;
}

std::optional<int64_t> optiml::constantTripCount(const Stmt &Loop,
                                                 ASTContext &Ctx) {
  const auto *For = dyn_cast<ForStmt>(&Loop);
  if (!For)
    return std::nullopt;
  auto L = analyzeLoop(*For, Ctx);
  if (!L) {
    llvm::consumeError(L.takeError());
    return std::nullopt;
  }
  return L->TripCount;
}

std::optional<int64_t> optiml::copyLoopTrips(const ForStmt &For,
                                             ASTContext &Ctx) {
  auto L = analyzeLoop(For, Ctx);
  if (!L) {
    llvm::consumeError(L.takeError());
    return std::nullopt;
  }
  auto Lower = L->Lower->getIntegerConstantExpr(Ctx);
  if (L->Step != 1 || !Lower || *Lower != 0)
    return std::nullopt;
  return L->TripCount;
}

__int128 optiml::maxValueOf(QualType T, const ASTContext &Ctx) {
  unsigned Bits = Ctx.getIntWidth(T);
  return T->isSignedIntegerOrEnumerationType() ? (__int128(1) << (Bits - 1)) - 1
                                               : (__int128(1) << Bits) - 1;
}

const char *optiml::loopKindOf(const Stmt &Loop) {
  if (isa<CXXForRangeStmt>(Loop))
    return "a range-for loop";
  if (isa<ForStmt>(Loop))
    return "a for-loop";
  return isa<WhileStmt>(Loop) ? "a while-loop" : "a do-loop";
}

static bool writtenInMainFile(SourceLocation Loc, const SourceManager &SM) {
  return Loc.isValid() && !Loc.isMacroID() && SM.isWrittenInMainFile(Loc);
}

llvm::Expected<const ForStmt *> optiml::rewritableFor(const Stmt &Loop,
                                                      llvm::StringRef Site,
                                                      llvm::StringRef NeedsFor,
                                                      llvm::StringRef InMacro,
                                                      ASTContext &Ctx) {
  const auto *For = dyn_cast<ForStmt>(&Loop);
  if (!For)
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "'" + Site + "' is " + loopKindOf(Loop) + "; " +
                               NeedsFor);
  const SourceManager &SM = Ctx.getSourceManager();
  if (!writtenInMainFile(For->getBeginLoc(), SM) ||
      !writtenInMainFile(For->getRParenLoc(), SM) ||
      !writtenInMainFile(For->getEndLoc(), SM))
    return notApplicableAt(For->getBeginLoc(), Ctx,
                           "'" + Site + "' is written inside a macro; " +
                               InMacro);
  return For;
}

llvm::Expected<std::optional<__int128>>
optiml::constantBoundValue(const CanonicalLoop &L, ASTContext &Ctx) {
  Expr::EvalResult R;
  if (L.Bound->isValueDependent() || !L.Bound->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  const llvm::APSInt &B = R.Val.getInt();
  if (B.isSigned() ? B.getSignificantBits() > 64 : B.getActiveBits() > 64)
    return illegalAt(L.Bound->getBeginLoc(), Ctx,
                     "the bound does not fit in 64 bits");
  __int128 Bound =
      B.isSigned() ? __int128(B.getSExtValue()) : __int128(B.getZExtValue());
  return Bound + (L.Cmp == BO_LT ? -1 : 0);
}
