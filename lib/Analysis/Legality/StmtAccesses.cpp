//===- StmtAccesses.cpp - what statements read and write ------------------===//

#include "optiml/Analysis/Legality/StmtAccesses.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

namespace {

/// Where an address starts and how far into its object it points.
struct Resolved {
  const VarDecl *Root = nullptr;
  std::optional<IndexPolynomial> Offset;
  std::string Why;

  static Resolved unknown(const Twine &Why) { return {nullptr, {}, Why.str()}; }
};

/// Follows an address expression back to the object it points into.
class AddressResolver {
public:
  explicit AddressResolver(ASTContext &Ctx) : Ctx(Ctx) {}

  Resolved resolve(const Expr *E, unsigned Depth = 0) const;
  /// \p R moved by \p Index elements of type \p Element.
  Resolved advance(Resolved R, const Expr &Index, QualType Element,
                   bool Subtract = false) const;

private:
  Resolved variable(const VarDecl &V, unsigned Depth) const;
  Resolved cast(const CastExpr &C, unsigned Depth) const;
  Resolved addressOf(const Expr *E, unsigned Depth) const;

  ASTContext &Ctx;
};

} // namespace

/// How many scalar elements one \p T spans (16 * 17 for `float[16][17]`),
/// or nothing for an array of unknown size.
static std::optional<int64_t> scalarsIn(QualType T, const ASTContext &Ctx) {
  int64_t N = 1;
  while (T->isArrayType()) {
    const ConstantArrayType *A = Ctx.getAsConstantArrayType(T);
    if (!A)
      return std::nullopt;
    N *= A->getSize().getZExtValue();
    T = A->getElementType();
  }
  return N;
}

static bool isReassignedInFunction(const VarDecl &V, ASTContext &Ctx) {
  const auto *F = dyn_cast<FunctionDecl>(V.getDeclContext());
  return !F || !F->getBody() || isReassigned(V, *F->getBody(), Ctx);
}

Resolved AddressResolver::advance(Resolved R, const Expr &Index,
                                  QualType Element, bool Subtract) const {
  if (!R.Root || !R.Offset)
    return R;
  auto P = IndexPolynomial::of(Index, Ctx);
  std::optional<int64_t> Scale = scalarsIn(Element, Ctx);
  if (!P || !Scale) {
    R.Why = P ? "the element type has no constant size"
              : llvm::toString(P.takeError());
    R.Offset.reset();
    return R;
  }
  IndexPolynomial Step = *P * IndexPolynomial::constant(*Scale);
  R.Offset = Subtract ? *R.Offset - Step : *R.Offset + Step;
  return R;
}

Resolved AddressResolver::variable(const VarDecl &V, unsigned Depth) const {
  llvm::StringRef Name = V.getName();
  if (V.getType()->isArrayType())
    return {&V, IndexPolynomial::constant(0), ""};
  if (!V.getType()->isPointerType())
    return Resolved::unknown("'" + Name + "' is not a pointer");
  if (V.hasGlobalStorage() || V.getType()->isReferenceType())
    return Resolved::unknown("'" + Name + "' is a pointer in memory");
  if (isReassignedInFunction(V, Ctx))
    return Resolved::unknown("'" + Name + "' is assigned in the kernel");
  if (isa<ParmVarDecl>(V))
    return {&V, IndexPolynomial::constant(0), ""};
  if (!V.getInit() || Depth > 16)
    return Resolved::unknown("'" + Name + "' has no initial address");
  return resolve(V.getInit(), Depth + 1);
}

Resolved AddressResolver::cast(const CastExpr &C, unsigned Depth) const {
  switch (C.getCastKind()) {
  case CK_ArrayToPointerDecay:
  case CK_NoOp:
  case CK_LValueToRValue:
    return resolve(C.getSubExpr(), Depth);
  case CK_BitCast: {
    QualType To = C.getType(), From = C.getSubExpr()->getType();
    if (To->isPointerType() && From->isPointerType() &&
        Ctx.hasSameUnqualifiedType(To->getPointeeType(),
                                   From->getPointeeType()))
      return resolve(C.getSubExpr(), Depth);
    return Resolved::unknown("the pointer is converted to another type");
  }
  default:
    return Resolved::unknown("the address is converted from a non-pointer");
  }
}

Resolved AddressResolver::addressOf(const Expr *E, unsigned Depth) const {
  E = E->IgnoreParens();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return advance(resolve(A->getBase(), Depth), *A->getIdx(), A->getType());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
        V && V->hasGlobalStorage())
      return {V, IndexPolynomial::constant(0), ""};
  return Resolved::unknown("the address is taken of something OptiML does "
                           "not follow");
}

Resolved AddressResolver::resolve(const Expr *E, unsigned Depth) const {
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<CastExpr>(E))
    return cast(*C, Depth);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
      return variable(*V, Depth);
    return Resolved::unknown("the address is not a variable's");
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->isAdditiveOp() && B->getType()->isPointerType()) {
    bool PtrLeft = B->getLHS()->getType()->isPointerType();
    const Expr *Ptr = PtrLeft ? B->getLHS() : B->getRHS();
    const Expr *Index = PtrLeft ? B->getRHS() : B->getLHS();
    return advance(resolve(Ptr, Depth), *Index, B->getType()->getPointeeType(),
                   B->getOpcode() == BO_Sub);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    return addressOf(U->getSubExpr(), Depth);
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E);
      A && A->getType()->isArrayType()) // `s[r]` of `float s[16][17]`.
    return advance(resolve(A->getBase(), Depth), *A->getIdx(), A->getType());
  return Resolved::unknown(llvm::Twine("the address is computed by a ") +
                           E->getStmtClassName());
}

//===----------------------------------------------------------------------===//
// Uses
//===----------------------------------------------------------------------===//

namespace {
struct Use {
  bool Reads = false, Writes = false;
};
} // namespace

/// What is done with the memory lvalue \p L where it stands; anything not
/// recognized as a plain load or store counts as both.
static Use useOf(const Expr &L, ASTContext &Ctx) {
  const Use Read{true, false}, Write{false, true}, Both{true, true};
  auto [User, Child] = lvalueUser(L, Ctx, /*ThroughConstCasts=*/true);
  if (const auto *C = User.get<ImplicitCastExpr>())
    return C->getCastKind() == CK_LValueToRValue ? Read : Both;
  if (const auto *B = User.get<BinaryOperator>()) {
    if (!B->isAssignmentOp() || B->getLHS() != Child)
      return Read;
    return B->getOpcode() == BO_Assign ? Write : Both;
  }
  if (const auto *U = User.get<UnaryOperator>()) {
    if (U->isIncrementDecrementOp())
      return Both;
    if (U->getOpcode() != UO_AddrOf)
      return Read;
    DynTypedNode Node = parentOf(User, Ctx);
    while (Node.get<ImplicitCastExpr>())
      Node = parentOf(Node, Ctx);
    const auto *Call = Node.get<CallExpr>();
    return Call && isLoadIntrinsic(*Call) ? Read : Both;
  }
  if (const auto *C = User.get<CXXConstructExpr>())
    return C->getConstructor()->isCopyOrMoveConstructor() &&
                   C->getConstructor()
                       ->getParamDecl(0)
                       ->getType()
                       ->getPointeeType()
                       .isConstQualified()
               ? Read
               : Both;
  if (const auto *V = User.get<VarDecl>())
    return V->getType()->isReferenceType() ? Both : Read;
  if (User.get<InitListExpr>())
    return Read;
  return Both;
}

/// Whether \p Call is known to have no effect but its value: a pure math
/// function, a load intrinsic, or a library function (a system header's or
/// a builtin) that returns a value, not a pointer, and takes every argument
/// by value and none as a pointer (`make_float4`, `__float2int_rn`,
/// `__int_as_float`; not `malloc`, `atomicAdd` or `printf`).
static bool isEffectFree(const CallExpr &Call, ASTContext &Ctx) {
  if (isPureMathCall(Call, Ctx) || isLoadIntrinsic(Call))
    return true;
  const FunctionDecl *F = Call.getDirectCallee();
  QualType Result = F ? F->getReturnType() : QualType();
  if (!F || F->isVariadic() || Result->isVoidType() ||
      Result->isPointerType() || Result->isReferenceType())
    return false;
  if (F->getBuiltinID() == 0 &&
      !Ctx.getSourceManager().isInSystemHeader(F->getLocation()))
    return false;
  return llvm::none_of(F->parameters(), [](const ParmVarDecl *P) {
    QualType T = P->getType();
    return T->isPointerType() || T->isReferenceType() || T->isArrayType();
  });
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

StmtAccesses::StmtAccesses(llvm::ArrayRef<const Stmt *> Stmts, ASTContext &Ctx)
    : Ctx(Ctx) {
  for (const Stmt *S : Stmts) {
    findJumps(S, /*InLoop=*/false, /*InSwitch=*/false);
    forEachNode(S, [this](const Stmt *N) { visit(N); });
  }
}

void StmtAccesses::noteHazard(const Stmt &Where, std::string What) {
  if (!Hazard)
    Hazard = OrderHazard{&Where, std::move(What)};
}

void StmtAccesses::findJumps(const Stmt *S, bool InLoop, bool InSwitch) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<ReturnStmt>(S))
    return noteHazard(*S, "a 'return'");
  if (isa<GotoStmt, IndirectGotoStmt>(S))
    return noteHazard(*S, "a 'goto'");
  if (const auto *L = dyn_cast<LabelStmt>(S))
    return noteHazard(*S, "label '" + std::string(L->getName()) + "'");
  if (isa<ContinueStmt>(S) && !InLoop)
    return noteHazard(*S, "a 'continue' of the loop");
  if (isa<BreakStmt>(S) && !InLoop && !InSwitch)
    return noteHazard(*S, "a 'break' out of the loop");
  bool Loop = InLoop || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  bool Switch = InSwitch || isa<SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    findJumps(Child, Loop, Switch);
}

void StmtAccesses::noteVariable(const DeclRefExpr &Ref) {
  const auto *V = dyn_cast<VarDecl>(Ref.getDecl());
  if (!V)
    return;
  if (FirstUse.try_emplace(V, &Ref).second)
    Used.push_back(V);
  if (V->getType().isVolatileQualified())
    noteHazard(Ref, "a volatile access to '" + V->getName().str() + "'");
  if (V->getType()->isArrayType())
    return; // Its elements are memory, reached through subscripts.
  if (V->getType()->isReferenceType() || V->hasGlobalStorage()) {
    // Memory, not a register: a reference's target is unknown; a global or
    // __shared__ scalar is its own object.
    Use U = useOf(Ref, Ctx);
    MemoryAccess A{&Ref, nullptr, std::nullopt, "", U.Reads, U.Writes};
    if (V->getType()->isReferenceType())
      A.Why = "'" + V->getName().str() + "' is a reference";
    else
      A.Root = V, A.Offset = IndexPolynomial::constant(0);
    Memory.push_back(std::move(A));
    return;
  }
  if (!isPureRead(Ref, Ctx))
    FirstWrite.try_emplace(V, &Ref);
}

void StmtAccesses::noteAccess(const Expr &Lvalue, const Expr &Base,
                              const Expr *Index) {
  if (Lvalue.getType()->isArrayType())
    return; // A row of a 2-D array; the element access holds it.
  if (Lvalue.getType().isVolatileQualified())
    noteHazard(Lvalue, "a volatile access");
  AddressResolver R(Ctx);
  Resolved Where = R.resolve(&Base);
  if (Index)
    Where = R.advance(std::move(Where), *Index, Lvalue.getType());
  Use U = useOf(Lvalue, Ctx);
  Memory.push_back(MemoryAccess{&Lvalue, Where.Root, std::move(Where.Offset),
                                std::move(Where.Why), U.Reads, U.Writes});
}

void StmtAccesses::noteCall(const CallExpr &Call) {
  const FunctionDecl *F = Call.getDirectCallee();
  std::string Name =
      F && F->getIdentifier() ? "'" + F->getName().str() + "'" : "a function";
  if (isCooperativeCall(Call))
    return noteHazard(Call, "a call to " + Name +
                                ", which synchronizes or exchanges data "
                                "between threads");
  if (!isEffectFree(Call, Ctx))
    noteHazard(Call, "a call to " + Name +
                         ", whose side effects OptiML does not follow");
}

void StmtAccesses::visit(const Stmt *S) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        Declared.push_back(V);
  } else if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    noteVariable(*Ref);
  } else if (const auto *A = dyn_cast<ArraySubscriptExpr>(S)) {
    noteAccess(*A, *A->getBase(), A->getIdx());
  } else if (const auto *U = dyn_cast<UnaryOperator>(S);
             U && U->getOpcode() == UO_Deref) {
    noteAccess(*U, *U->getSubExpr(), nullptr);
  } else if (const auto *M = dyn_cast<MemberExpr>(S); M && M->isArrow()) {
    noteAccess(*M, *M->getBase(), nullptr);
  } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
    noteCall(*Call);
  } else if (const auto *C = dyn_cast<CXXConstructExpr>(S);
             C && !C->getConstructor()->isTrivial()) {
    noteHazard(*S, "a constructor call, whose side effects OptiML does not "
                   "follow");
  } else if (isa<AsmStmt>(S)) {
    noteHazard(*S, "inline assembly");
  } else if (isa<LambdaExpr, BlockExpr, CXXThrowExpr, CXXNewExpr, CXXDeleteExpr,
                 CoroutineBodyStmt>(S)) {
    noteHazard(*S, std::string("a ") + S->getStmtClassName() +
                       ", which OptiML does not follow");
  }
}

void StmtAccesses::renameInOffsets(const VarDecl &From, const VarDecl &To) {
  IndexPolynomial By = IndexPolynomial::atom(IndexAtom::of(To));
  for (MemoryAccess &A : Memory)
    if (A.Offset)
      A.Offset = A.Offset->substitute(IndexAtom::of(From), By);
}
