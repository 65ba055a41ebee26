//===- AtomicUpdates.cpp - a buffer's atomic read-modify-writes -----------===//

#include "optiml/Analysis/Legality/AtomicUpdates.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace optiml;
using namespace clang;

/// The atomics whose effect on an element does not depend on the order of
/// the threads (atomicExch and atomicCAS do).
static bool isOrderFreeAtomic(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("atomicAdd", "atomicSub", "atomicMin", "atomicMax", true)
      .Cases("atomicAnd", "atomicOr", "atomicXor", true)
      .Cases("atomicInc", "atomicDec", true)
      .Default(false);
}

static const DeclRefExpr *variableRef(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref && isa<VarDecl>(Ref->getDecl()) ? Ref : nullptr;
}

std::optional<AtomicUpdate> optiml::atomicUpdateOf(const CallExpr &Call) {
  const FunctionDecl *F = Call.getDirectCallee();
  if (!F || !F->getIdentifier() || !isOrderFreeAtomic(F->getName()) ||
      Call.getNumArgs() != 2)
    return std::nullopt;
  const Expr *A = Call.getArg(0)->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(A);
      U && U->getOpcode() == UO_AddrOf)
    if (const auto *S =
            dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens()))
      if (const DeclRefExpr *Ref = variableRef(S->getBase()))
        return AtomicUpdate{&Call, Ref, S->getIdx()};
  if (const auto *B = dyn_cast<BinaryOperator>(A);
      B && B->getOpcode() == BO_Add) {
    if (const DeclRefExpr *Ref = variableRef(B->getLHS());
        Ref && Ref->getType()->isPointerType())
      return AtomicUpdate{&Call, Ref, B->getRHS()};
    if (const DeclRefExpr *Ref = variableRef(B->getRHS());
        Ref && Ref->getType()->isPointerType())
      return AtomicUpdate{&Call, Ref, B->getLHS()};
  }
  return std::nullopt;
}

bool optiml::onlyAtomicUpdates(const VarDecl &Buffer, const Stmt &Body,
                               ASTContext &Ctx) {
  llvm::SmallPtrSet<const DeclRefExpr *, 8> Updates;
  for (const CallExpr *Call : nodesOf<CallExpr>(&Body))
    if (auto U = atomicUpdateOf(*Call);
        U && U->Buffer->getDecl() == &Buffer && isDiscardedValue(*Call, Ctx))
      Updates.insert(U->Buffer);
  std::vector<const DeclRefExpr *> Uses = usesOf(Buffer, Body, Ctx);
  return !Uses.empty() && llvm::all_of(Uses, [&](const DeclRefExpr *Ref) {
    return Updates.contains(Ref);
  });
}
