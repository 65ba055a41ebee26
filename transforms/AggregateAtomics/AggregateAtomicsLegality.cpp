//===- AggregateAtomicsLegality.cpp - may a warp add once? ----------------===//

#include "transforms/AggregateAtomics/AggregateAtomicsLegality.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/FirstRefusal.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

namespace {

/// How deep varyingPart follows locals into their initializers.
constexpr unsigned MaxDepth = 8;

/// The first part of \p E that may differ between the threads of a warp,
/// or null when \p E is the same in all of them (AggregateAtomicsLegality.h
/// lists what is).
const Expr *varyingPart(const Expr &E, const FunctionDecl &Kernel,
                        ASTContext &Ctx, unsigned Depth = 0) {
  const Expr *Found = nullptr;
  forEachNode(&E, [&](const Stmt *N) {
    if (Found)
      return;
    if (auto B = asBuiltinRef(dyn_cast<Expr>(N))) {
      if (B->Which == BuiltinRef::ThreadIdx)
        Found = cast<Expr>(N);
      return;
    }
    if (isa<CallExpr>(N)) {
      Found = cast<Expr>(N);
      return;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(N);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!V || V->hasGlobalStorage())
      return; // Enumerators, functions, template arguments, statics.
    // The address of a thread's own variable differs in every thread.
    const auto *U =
        parentOf(DynTypedNode::create(*Ref), Ctx).get<UnaryOperator>();
    bool Own =
        V->getType()->isArrayType() || (U && U->getOpcode() == UO_AddrOf);
    if (Own || isReassigned(*V, *Kernel.getBody(), Ctx)) {
      Found = Ref; // One that changes may change differently per thread.
      return;
    }
    if (isa<ParmVarDecl>(V))
      return;
    if (!V->getInit() || Depth >= MaxDepth ||
        varyingPart(*V->getInit(), Kernel, Ctx, Depth + 1))
      Found = Ref;
  });
  return Found;
}

bool isShuffledType(QualType T, ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  return Ctx.hasSameType(T, Ctx.IntTy) ||
         Ctx.hasSameType(T, Ctx.UnsignedIntTy) ||
         Ctx.hasSameType(T, Ctx.FloatTy) || Ctx.hasSameType(T, Ctx.DoubleTy);
}

/// Success when \p Call may be aggregated over a warp.
llvm::Error checkAtomic(const CallExpr &Call, const FunctionDecl &Kernel,
                        ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange R = Call.getSourceRange();
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID() ||
      !SM.isInMainFile(R.getBegin()))
    return notApplicableAt(SM.getExpansionLoc(R.getBegin()), Ctx,
                           "this atomicAdd is written inside a macro");
  if (Call.getNumArgs() != 2 || !Call.getArg(0)->getType()->isPointerType())
    return notApplicableAt(Call.getBeginLoc(), Ctx,
                           "this atomicAdd does not take an address and a "
                           "value");
  if (!isDiscardedValue(Call, Ctx))
    return illegalAt(Call.getBeginLoc(), Ctx,
                     "the value this atomicAdd returns (each thread's old "
                     "value) is used, which one atomic per warp cannot give");
  QualType Element = Call.getArg(0)->getType()->getPointeeType();
  if (Element->isDependentType() || !isShuffledType(Element, Ctx))
    return notApplicableAt(Call.getBeginLoc(), Ctx,
                           "this atomicAdd adds '" + Element.getAsString() +
                               "': the warp sum shuffles int, unsigned, "
                               "float or double only");
  const Expr &Address = *Call.getArg(0);
  if (Address.HasSideEffects(Ctx))
    return illegalAt(Address.getBeginLoc(), Ctx,
                     "the address has side effects, and only one lane would "
                     "evaluate it");
  if (const Expr *Varying = varyingPart(Address, Kernel, Ctx))
    return notApplicableAt(
        Varying->getBeginLoc(), Ctx,
        "the address '" + textOf(Address.getSourceRange(), Ctx) +
            "' may differ between the lanes of a warp ('" +
            textOf(Varying->getSourceRange(), Ctx) + "' does)");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<AggregateAtomicsPlan>
AggregateAtomicsLegality::check(const Site &S, ASTContext &Ctx) {
  const FunctionDecl &Kernel = *S.Kernel;
  AggregateAtomicsPlan Plan;
  FirstRefusal Refusals;
  for (const CallExpr *Call : nodesOf<CallExpr>(Kernel.getBody())) {
    const FunctionDecl *F = Call->getDirectCallee();
    if (!F || !F->getIdentifier() || F->getName() != "atomicAdd")
      continue;
    if (llvm::Error E = checkAtomic(*Call, Kernel, Ctx)) {
      Refusals.note(std::move(E));
      continue;
    }
    Plan.Atomics.push_back(
        {Call,
         Call->getArg(0)->getType()->getPointeeType().getUnqualifiedType()});
  }
  if (!Plan.Atomics.empty())
    return Plan;
  return Refusals.take(
      notApplicableAt(Kernel.getLocation(), Ctx,
                      "'" + Kernel.getName() + "' calls no atomicAdd"));
}
