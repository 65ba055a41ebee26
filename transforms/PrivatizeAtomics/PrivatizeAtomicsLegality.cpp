//===- PrivatizeAtomicsLegality.cpp - may a block count privately? --------===//

#include "transforms/PrivatizeAtomics/PrivatizeAtomicsLegality.h"
#include "optiml/Analysis/Legality/AtomicUpdates.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/GuardTerms.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/SharedMemory.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace optiml;
using namespace clang;

namespace {

/// A bound that is not a constant: the value is in [Lo, Count) whenever
/// the kernel-invariant expression Count is in [1, PrivateCapacity].
struct SymbolicBound {
  std::string Count; ///< C++ text, made of parameters and constants.
  int64_t Lo = 0;
};

/// Inclusive bounds of an integer expression; an unset side is unknown.
struct Range {
  std::optional<int64_t> Lo, Hi;
  std::optional<SymbolicBound> Symbolic;
};

/// How deep rangeOf follows locals into their initializers.
constexpr unsigned MaxDepth = 8;

/// The values an integer type holds (up to 62 bits, so that sums of two
/// bounds stay exact).
Range rangeOfType(QualType T, const ASTContext &Ctx) {
  if (T.isNull() || !T->isIntegralOrEnumerationType() || T->isDependentType())
    return {};
  if (T->isBooleanType())
    return {0, 1};
  unsigned Bits = Ctx.getIntWidth(T);
  if (Bits > 62)
    return {};
  if (T->isUnsignedIntegerOrEnumerationType())
    return {0, (int64_t(1) << Bits) - 1};
  return {-(int64_t(1) << (Bits - 1)), (int64_t(1) << (Bits - 1)) - 1};
}

/// \p R where it provably fits in \p T, else what \p T holds (and a
/// symbolic bound, which \p T holds when it holds every value below the
/// capacity).
Range within(Range R, QualType T, const ASTContext &Ctx) {
  Range Type = rangeOfType(T, Ctx);
  if (R.Lo && R.Hi && Type.Lo && Type.Hi && *R.Lo >= *Type.Lo &&
      *R.Hi <= *Type.Hi)
    return R;
  if (R.Symbolic && Type.Lo && Type.Hi && R.Symbolic->Lo >= *Type.Lo &&
      int64_t(PrivateCapacity) - 1 <= *Type.Hi)
    Type.Symbolic = R.Symbolic;
  return Type;
}

class RangeFinder {
public:
  RangeFinder(const FunctionDecl &Kernel, ASTContext &Ctx)
      : Kernel(Kernel), Ctx(Ctx) {}

  Range of(const Expr *E, unsigned Depth = 0) const {
    E = E->IgnoreParens();
    Expr::EvalResult Value;
    if (!E->isValueDependent() && E->EvaluateAsInt(Value, Ctx) &&
        Value.Val.getInt().getSignificantBits() <= 62) {
      int64_t V = Value.Val.getInt().getSExtValue();
      return {V, V};
    }
    if (const auto *C = dyn_cast<CastExpr>(E))
      return cast(*C, Depth);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return variable(*Ref, Depth);
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return binary(*B, Depth);
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return call(*Call, Depth);
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      Range T = of(C->getTrueExpr(), Depth), F = of(C->getFalseExpr(), Depth);
      if (T.Lo && F.Lo && T.Hi && F.Hi)
        return {std::min(*T.Lo, *F.Lo), std::max(*T.Hi, *F.Hi)};
    }
    return rangeOfType(E->getType(), Ctx);
  }

private:
  Range cast(const CastExpr &C, unsigned Depth) const {
    switch (C.getCastKind()) {
    case CK_IntegralCast:
    case CK_NoOp:
    case CK_LValueToRValue:
      return within(of(C.getSubExpr(), Depth), C.getType(), Ctx);
    default:
      return rangeOfType(C.getType(), Ctx);
    }
  }

  /// A local never assigned after its initializer has the initializer's
  /// range; one assigned once, by a statement before \p Ref's in the same
  /// block, that assignment's (its own name there meaning the initializer);
  /// anything else its type's.
  Range variable(const DeclRefExpr &Ref, unsigned Depth) const {
    const auto *V = dyn_cast<VarDecl>(Ref.getDecl());
    if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || Depth >= MaxDepth)
      return rangeOfType(Ref.getType(), Ctx);
    if (V == Assigning)
      return initial(*V, Depth);
    if (!isReassigned(*V, *Kernel.getBody(), Ctx))
      return initial(*V, Depth);
    const BinaryOperator *Assign = assignmentBefore(*V, Ref);
    if (!Assign)
      return rangeOfType(Ref.getType(), Ctx);
    const VarDecl *Outer = Assigning;
    Assigning = V;
    Range R = within(of(Assign->getRHS(), Depth + 1), V->getType(), Ctx);
    Assigning = Outer;
    return R;
  }

  Range initial(const VarDecl &V, unsigned Depth) const {
    if (!V.getInit())
      return rangeOfType(V.getType(), Ctx);
    return within(of(V.getInit(), Depth + 1), V.getType(), Ctx);
  }

  /// The only assignment to \p V (`V = e;`, a statement of its own) where
  /// it is a statement of a block that holds \p Use in a later statement.
  const BinaryOperator *assignmentBefore(const VarDecl &V,
                                         const DeclRefExpr &Use) const {
    const BinaryOperator *Only = nullptr;
    for (const DeclRefExpr *Ref : usesOf(V, *Kernel.getBody(), Ctx)) {
      if (isPureRead(*Ref, Ctx))
        continue;
      const auto *B = dyn_cast_or_null<BinaryOperator>(
          parentOf(DynTypedNode::create(*Ref), Ctx).get<Stmt>());
      if (Only || !B || B->getOpcode() != BO_Assign ||
          B->getLHS()->IgnoreParens() != Ref)
        return nullptr;
      Only = B;
    }
    if (!Only)
      return nullptr;
    const auto *Block = dyn_cast_or_null<CompoundStmt>(
        parentOf(DynTypedNode::create(*Only), Ctx).get<Stmt>());
    if (!Block)
      return nullptr;
    std::vector<const Stmt *> Around = enclosingStmts(Use, Ctx);
    bool After = false;
    for (const Stmt *S : Block->body()) {
      if (S == Only)
        After = true;
      else if (After && llvm::is_contained(Around, S))
        return Only;
    }
    return nullptr;
  }

  /// Whether \p E has the same value in every thread and all along the
  /// kernel: constants and integer parameters the kernel never assigns,
  /// combined by arithmetic.
  bool isInvariant(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    Expr::EvalResult Value;
    if (!E->isValueDependent() && E->EvaluateAsInt(Value, Ctx))
      return true;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl());
      return P && P->getType()->isIntegerType() &&
             !isReassigned(*P, *Kernel.getBody(), Ctx);
    }
    if (const auto *C = dyn_cast<CastExpr>(E))
      return C->getType()->isIntegerType() && isInvariant(C->getSubExpr());
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return B->isAdditiveOp() || B->isMultiplicativeOp() || B->isShiftOp()
                 ? isInvariant(B->getLHS()) && isInvariant(B->getRHS())
                 : false;
    return false;
  }

  /// The symbolic bound of `min(A, U)` with U invariant: below U + 1.
  /// Under the rewrite's guard that count is at least 1, so U >= 0 and the
  /// least value is A's or 0. (`e % U` is bounded in binary().)
  std::optional<SymbolicBound> minWith(const Range &A, const Expr &U) const {
    if (!isInvariant(&U) || !A.Lo)
      return std::nullopt;
    return SymbolicBound{"(" + textOf(U.getSourceRange(), Ctx) + ") + 1",
                         std::min<int64_t>(*A.Lo, 0)};
  }

  Range binary(const BinaryOperator &B, unsigned Depth) const {
    Range L = of(B.getLHS(), Depth), R = of(B.getRHS(), Depth);
    bool Known = L.Lo && L.Hi && R.Lo && R.Hi;
    switch (B.getOpcode()) {
    case BO_And:
      // A non-negative mask keeps the bits under it, whatever the other side.
      for (const Range &Mask : {L, R})
        if (Mask.Lo && Mask.Hi && *Mask.Lo == *Mask.Hi && *Mask.Lo >= 0)
          return {0, *Mask.Hi};
      break;
    case BO_Rem:
      if (L.Lo && *L.Lo >= 0 && R.Lo && *R.Lo > 0 && R.Hi)
        return {0, *R.Hi - 1};
      if (L.Lo && *L.Lo >= 0 && isInvariant(B.getRHS())) {
        Range Out = rangeOfType(B.getType(), Ctx);
        Out.Symbolic =
            SymbolicBound{textOf(B.getRHS()->getSourceRange(), Ctx), 0};
        return Out;
      }
      break;
    case BO_Shr:
      if (L.Lo && *L.Lo >= 0 && L.Hi && R.Lo && *R.Lo >= 0 && *R.Lo < 63)
        return {0, *L.Hi >> *R.Lo};
      break;
    case BO_Div:
      if (Known && *L.Lo >= 0 && *R.Lo > 0)
        return {*L.Lo / *R.Hi, *L.Hi / *R.Lo};
      break;
    case BO_Add:
      if (Known)
        return within({*L.Lo + *R.Lo, *L.Hi + *R.Hi}, B.getType(), Ctx);
      break;
    case BO_Sub:
      if (Known)
        return within({*L.Lo - *R.Hi, *L.Hi - *R.Lo}, B.getType(), Ctx);
      break;
    case BO_Mul:
      if (Known && *L.Lo >= 0 && *R.Lo >= 0 && *L.Hi < (int64_t(1) << 31) &&
          *R.Hi < (int64_t(1) << 31))
        return within({*L.Lo * *R.Lo, *L.Hi * *R.Hi}, B.getType(), Ctx);
      break;
    default:
      break;
    }
    return rangeOfType(B.getType(), Ctx);
  }

  /// min() and max() (CUDA's, or std::'s) of two integers.
  Range call(const CallExpr &Call, unsigned Depth) const {
    const FunctionDecl *F = Call.getDirectCallee();
    if (!F || !F->getIdentifier() || Call.getNumArgs() != 2 ||
        !Call.getType()->isIntegerType())
      return rangeOfType(Call.getType(), Ctx);
    StringRef Name = F->getName();
    Range A = of(Call.getArg(0), Depth), B = of(Call.getArg(1), Depth);
    using Bound = std::optional<int64_t>;
    // Where one side is unknown, min keeps the other's upper bound and max
    // its lower bound; the other sides need both.
    auto Either = [](Bound X, Bound Y,
                     const int64_t &(*Pick)(const int64_t &, const int64_t &)) {
      return X && Y ? Bound(Pick(*X, *Y)) : (X ? X : Y);
    };
    auto Both = [](Bound X, Bound Y,
                   const int64_t &(*Pick)(const int64_t &, const int64_t &)) {
      return X && Y ? Bound(Pick(*X, *Y)) : std::nullopt;
    };
    const int64_t &(*Min)(const int64_t &, const int64_t &) = std::min;
    const int64_t &(*Max)(const int64_t &, const int64_t &) = std::max;
    if (Name == "min" || Name == "umin" || Name == "llmin") {
      Range Out{Both(A.Lo, B.Lo, Min), Either(A.Hi, B.Hi, Min)};
      Out.Symbolic = minWith(A, *Call.getArg(1));
      if (!Out.Symbolic)
        Out.Symbolic = minWith(B, *Call.getArg(0));
      return within(Out, Call.getType(), Ctx);
    }
    if (Name == "max" || Name == "umax" || Name == "llmax") {
      Range Out{Either(A.Lo, B.Lo, Max), Both(A.Hi, B.Hi, Max)};
      // max(e, c) with c <= 0 stays below e's symbolic count (at least 1).
      for (auto [X, Y] : {std::pair(&A, &B), std::pair(&B, &A)})
        if (X->Symbolic && Y->Lo && Y->Hi && *Y->Hi <= 0 && !Out.Symbolic)
          Out.Symbolic = SymbolicBound{X->Symbolic->Count,
                                       std::max(X->Symbolic->Lo, *Y->Lo)};
      return within(Out, Call.getType(), Ctx);
    }
    return rangeOfType(Call.getType(), Ctx);
  }

  const FunctionDecl &Kernel;
  ASTContext &Ctx;
  /// The local whose assignment is being read: its name there is its
  /// initial value.
  mutable const VarDecl *Assigning = nullptr;
};

bool isCountingType(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  return Ctx.hasSameType(T, Ctx.IntTy) ||
         Ctx.hasSameType(T, Ctx.UnsignedIntTy) ||
         Ctx.hasSameType(T, Ctx.UnsignedLongLongTy);
}

class AtomicScan {
public:
  AtomicScan(const Site &S, ASTContext &Ctx)
      : Kernel(*S.Kernel), Buffer(*S.Buffer), Ctx(Ctx), Ranges(Kernel, Ctx) {}

  llvm::Expected<PrivatizeAtomicsPlan> run();

private:
  llvm::Error atomic(const CallExpr &Call, const DeclRefExpr &Ref,
                     const Expr &Index);
  llvm::Error otherUses();
  llvm::Error foldReturns();
  llvm::Error fitsShared();

  const FunctionDecl &Kernel;
  const ParmVarDecl &Buffer;
  ASTContext &Ctx;
  RangeFinder Ranges;
  PrivatizeAtomicsPlan Plan;
};

llvm::Error AtomicScan::atomic(const CallExpr &Call, const DeclRefExpr &Ref,
                               const Expr &Index) {
  SourceRange R = Call.getSourceRange();
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return notApplicableAt(Ctx.getSourceManager().getExpansionLoc(R.getBegin()),
                           Ctx, "this atomicAdd is written inside a macro");
  if (!isDiscardedValue(Call, Ctx))
    return illegalAt(Call.getBeginLoc(), Ctx,
                     "the value this atomicAdd returns (the bin's old count) "
                     "is used, and the block's private copy holds another");
  Range Bounds = Ranges.of(&Index);
  Plan.Uses.push_back(&Ref);
  bool Constant = Bounds.Lo && *Bounds.Lo >= 0 && Bounds.Hi;
  bool Symbolic = Bounds.Symbolic && Bounds.Symbolic->Lo >= 0;
  // A parameter's bound wins over a constant one too large for a copy.
  if (Constant && (!Symbolic || *Bounds.Hi < int64_t(PrivateCapacity))) {
    Plan.Bins = std::max<uint64_t>(Plan.Bins, uint64_t(*Bounds.Hi) + 1);
    return llvm::Error::success();
  }
  if (Symbolic &&
      (Plan.Count.empty() || Plan.Count == Bounds.Symbolic->Count)) {
    Plan.Count = Bounds.Symbolic->Count;
    return llvm::Error::success();
  }
  return notApplicableAt(
      Index.getBeginLoc(), Ctx,
      "the index '" + textOf(Index.getSourceRange(), Ctx) +
          "' is not provably within [0, C) for a constant C or a kernel "
          "parameter C (a byte or 16-bit unsigned value, e & C, e % C, "
          "min/max with C - 1)");
}

/// Every reference to the buffer must be one of the atomics' addresses.
llvm::Error AtomicScan::otherUses() {
  llvm::SmallPtrSet<const DeclRefExpr *, 8> Known(Plan.Uses.begin(),
                                                  Plan.Uses.end());
  for (const DeclRefExpr *Ref : usesOf(Buffer, *Kernel.getBody(), Ctx))
    if (!Known.contains(Ref))
      return notApplicableAt(Ref->getBeginLoc(), Ctx,
                             "'" + Buffer.getName() +
                                 "' is used here other than as the address "
                                 "of an atomicAdd (&" +
                                 Buffer.getName() + "[i] or " +
                                 Buffer.getName() + " + i)");
  return llvm::Error::success();
}

/// Every thread must reach the barrier before the merge, after the last
/// statement: top-level `if (C) return;` become guards of what follows
/// them (foldEarlyReturns), the last statement included; other returns
/// are refused there.
llvm::Error AtomicScan::foldReturns() {
  const auto *Body = cast<CompoundStmt>(Kernel.getBody());
  if (Body->body_empty() || nodesOf<ReturnStmt>(Body).empty())
    return llvm::Error::success();
  const Stmt &Last = *Body->body_back();
  for (const ReturnStmt *R : nodesOf<ReturnStmt>(&Last))
    return illegalAt(R->getBeginLoc(), Ctx,
                     "a thread that returns here would not reach the barrier "
                     "before the block's counts are merged");
  auto Fold = foldEarlyReturns(Kernel, Last, Ctx);
  if (!Fold)
    return Fold.takeError();
  Plan.Fold = std::move(*Fold);
  if (!Plan.Fold.Live.empty())
    Plan.Fold.Guarded.push_back(&Last);
  return llvm::Error::success();
}

llvm::Error AtomicScan::fitsShared() {
  // A symbolic count takes a copy of PrivateCapacity bins, used when the
  // count fits it; the constant bins of other atomics must fit it too.
  if (!Plan.Count.empty()) {
    if (Plan.Bins > PrivateCapacity)
      return notApplicableAt(Buffer.getLocation(), Ctx,
                             "'" + Buffer.getName() +
                                 "' is indexed both below a kernel "
                                 "parameter and below a constant over " +
                                 llvm::Twine(PrivateCapacity));
    Plan.Bins = PrivateCapacity;
  }
  uint64_t Bytes =
      Plan.Bins * Ctx.getTypeSizeInChars(Plan.Element).getQuantity();
  uint64_t Own = staticSharedBytes(Kernel, Ctx);
  if (Bytes + Own > StaticSharedLimit)
    return notApplicableAt(Buffer.getLocation(), Ctx,
                           llvm::Twine(Plan.Bins) + " bins take " +
                               llvm::Twine(Bytes) + " bytes; with the " +
                               llvm::Twine(Own) +
                               " bytes of __shared__ the kernel declares, "
                               "over the 48 KiB a block may declare");
  return llvm::Error::success();
}

llvm::Expected<PrivatizeAtomicsPlan> AtomicScan::run() {
  Plan.Buffer = &Buffer;
  QualType Pointee = Buffer.getType()->getPointeeType();
  if (Pointee.isNull() || Pointee->isDependentType() ||
      !isCountingType(Pointee, Ctx))
    return notApplicableAt(Buffer.getLocation(), Ctx,
                           "'" + Buffer.getName() +
                               "' does not point to int, unsigned or "
                               "unsigned long long counts");
  Plan.Element = Pointee.getUnqualifiedType();
  // The merge adds: only atomicAdd's updates are privatized.
  for (const CallExpr *Call : nodesOf<CallExpr>(Kernel.getBody()))
    if (auto U = atomicUpdateOf(*Call);
        U && U->Buffer->getDecl() == &Buffer &&
        Call->getDirectCallee()->getName() == "atomicAdd")
      if (llvm::Error E = atomic(*Call, *U->Buffer, *U->Index))
        return E;
  if (Plan.Uses.empty())
    return notApplicableAt(Buffer.getLocation(), Ctx,
                           "'" + Buffer.getName() +
                               "' is not the address of any atomicAdd");
  if (llvm::Error E = otherUses())
    return E;
  if (llvm::Error E = foldReturns())
    return E;
  if (llvm::Error E = fitsShared())
    return E;
  return Plan;
}

} // namespace

llvm::Expected<PrivatizeAtomicsPlan>
PrivatizeAtomicsLegality::check(const Site &S, ASTContext &Ctx) {
  if (!S.Buffer || S.Loop)
    return notApplicableAt(S.Kernel->getLocation(), Ctx,
                           "privatize-atomics takes a buffer of the whole "
                           "kernel ('" +
                               S.kernelName() + "/BUFFER')");
  return AtomicScan(S, Ctx).run();
}
