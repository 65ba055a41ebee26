//===- CoarsenLegality.cpp - may threads compute F outputs each? ---------===//

#include "transforms/Coarsen/CoarsenLegality.h"
#include "optiml/Analysis/Legality/AtomicUpdates.h"
#include "optiml/Analysis/Legality/BoundsGuard.h"
#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

namespace {

using VarSet = llvm::SmallPtrSet<const VarDecl *, 16>;

template <typename Pred> bool anyNode(const Stmt *S, Pred P) {
  bool Found = false;
  auto F = [&](const Stmt *N) { Found = Found || P(N); };
  forEachNode(S, F);
  return Found;
}

bool isBuiltin(const Stmt *S, BuiltinRef::Var Which, unsigned Dim) {
  if (!S || !isBuiltinRefNode(S))
    return false;
  std::optional<BuiltinRef> R = asBuiltinRef(cast<Expr>(S));
  return R->Which == Which && R->Dim == Dim;
}

bool isBuiltinExpr(const Expr *E, BuiltinRef::Var Which, unsigned Dim) {
  return isBuiltin(E->IgnoreParenImpCasts(), Which, Dim);
}

const VarDecl *refVar(const Stmt *S) {
  const auto *R = dyn_cast_or_null<DeclRefExpr>(S);
  return R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
}

template <typename SetT> bool refersTo(const Stmt *S, const SetT &Vars) {
  return anyNode(S, [&](const Stmt *N) {
    const VarDecl *V = refVar(N);
    return V && Vars.contains(V);
  });
}

/// Whether the use \p Ref may change the variable it names or, for a local
/// array, one of its elements.
bool modifies(const DeclRefExpr &Ref, ASTContext &Ctx) {
  bool IsArray = Ref.getDecl()->getType()->isArrayType();
  DynTypedNode Node = DynTypedNode::create(Ref);
  const Expr *Child = &Ref;
  while (true) {
    DynTypedNode Parent = parentOf(Node, Ctx);
    const Expr *Up = Parent.get<Expr>();
    if (isa_and_nonnull<ParenExpr>(Up)) {
      Child = Up, Node = Parent;
      continue;
    }
    if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(Up)) {
      if (C->getCastKind() == CK_LValueToRValue)
        return false;
      if (C->getCastKind() != CK_NoOp &&
          C->getCastKind() != CK_ArrayToPointerDecay)
        return true;
      Child = C, Node = Parent;
      continue;
    }
    if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(Up)) {
      if (A->getIdx() == Child || !IsArray)
        return false; // Reads the index, or the pointer's value.
      Child = A, Node = Parent;
      continue;
    }
    if (const auto *M = dyn_cast_or_null<MemberExpr>(Up)) {
      if (M->isArrow())
        return false;
      Child = M, Node = Parent;
      continue;
    }
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(Up))
      return B->isAssignmentOp() && B->getLHS() == Child;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Up))
      return U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf;
    if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(Up)) {
      const CXXConstructorDecl *K = C->getConstructor();
      return !K->isCopyOrMoveConstructor() || !K->getParamDecl(0)
                                                   ->getType()
                                                   ->getPointeeType()
                                                   .isConstQualified();
    }
    if (const auto *E = dyn_cast_or_null<ExplicitCastExpr>(Up))
      return E->getType()->isReferenceType();
    if (const auto *V = Parent.get<VarDecl>())
      return V->getType()->isReferenceType() &&
             !V->getType()->getPointeeType().isConstQualified();
    return true;
  }
}

bool neverModified(const VarDecl &V, const Stmt &Body, ASTContext &Ctx) {
  return llvm::none_of(usesOf(V, Body, Ctx),
                       [&](const DeclRefExpr *U) { return modifies(*U, Ctx); });
}

/// A call that cannot touch memory: a built-in or a function from a system
/// header (CUDA's math library) taking only values.
bool isPureCall(const CallExpr &C, ASTContext &Ctx) {
  const FunctionDecl *F = C.getDirectCallee();
  if (!F || !F->getIdentifier() || F->isVariadic() || isCooperativeCall(C) ||
      F->getName().starts_with("atomic") || isa<CXXMethodDecl>(F))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!F->getBuiltinID() &&
      !SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
    return false;
  return llvm::none_of(F->parameters(), [](const ParmVarDecl *P) {
    return P->getType()->isPointerType() || P->getType()->isReferenceType();
  });
}

bool isGlobalVar(const VarDecl *V, ASTContext &Ctx) {
  return V && V->hasGlobalStorage() && !V->isLocalVarDecl() &&
         !V->isUsableInConstantExpressions(Ctx);
}

/// An element of a local array (`acc[c]`, `acc[c][d]`): registers, not
/// memory the copies could share.
bool isLocalArrayElement(const ArraySubscriptExpr &A) {
  const Expr *Base = A.getBase()->IgnoreParenImpCasts();
  while (const auto *Inner = dyn_cast<ArraySubscriptExpr>(Base)) {
    if (!Inner->getType()->isArrayType())
      return false;
    Base = Inner->getBase()->IgnoreParenImpCasts();
  }
  const VarDecl *V = refVar(Base);
  return V && V->isLocalVarDecl() && V->getType()->isArrayType();
}

/// Whether \p S may touch global memory: an access through a pointer, a
/// global variable, or a call that is not pure.
bool touchesGlobal(const Stmt *S, ASTContext &Ctx) {
  return anyNode(S, [&](const Stmt *N) {
    if (isBuiltinRefNode(N))
      return false;
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(N))
      return !isLocalArrayElement(*A);
    if (const auto *U = dyn_cast<UnaryOperator>(N))
      return U->getOpcode() == UO_Deref;
    if (const auto *M = dyn_cast<MemberExpr>(N))
      return M->isArrow();
    if (const auto *C = dyn_cast<CallExpr>(N))
      return !isPureCall(*C, Ctx);
    if (isa<CXXNewExpr, CXXDeleteExpr, AsmStmt>(N))
      return true;
    return isGlobalVar(refVar(N), Ctx);
  });
}

/// Code that must run once per copy whatever it reads: calls that may have
/// effects, inline assembly.
bool hasEffects(const Stmt *S, ASTContext &Ctx) {
  return anyNode(S, [&](const Stmt *N) {
    if (const auto *C = dyn_cast<CallExpr>(N))
      return !isPureCall(*C, Ctx);
    return isa<AsmStmt>(N);
  });
}

/// `blockIdx.D * blockDim.D`, or `blockIdx.D * C` with C the constant
/// \p Extent every launch's block has in D.
bool isBlockOffset(const Expr *E, unsigned D, std::optional<uint64_t> Extent,
                   const ASTContext &Ctx) {
  const auto *M = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!M || M->getOpcode() != BO_Mul)
    return false;
  auto Is = [&](const Expr *A, const Expr *B) {
    if (!isBuiltinExpr(A, BuiltinRef::BlockIdx, D))
      return false;
    std::optional<int64_t> C = LaunchConfig::constant(B, Ctx);
    return isBuiltinExpr(B, BuiltinRef::BlockDim, D) ||
           (Extent && C && *C == int64_t(*Extent));
  };
  return Is(M->getLHS(), M->getRHS()) || Is(M->getRHS(), M->getLHS());
}

/// `blockIdx.D * blockDim.D + threadIdx.D`, in any operand order, the
/// block's extent perhaps written as the constant it is (isBlockOffset).
bool isGlobalIndex(const Expr *E, unsigned D, std::optional<uint64_t> Extent,
                   const ASTContext &Ctx) {
  const auto *S = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!S || S->getOpcode() != BO_Add)
    return false;
  auto Is = [&](const Expr *A, const Expr *B) {
    return isBlockOffset(A, D, Extent, Ctx) &&
           isBuiltinExpr(B, BuiltinRef::ThreadIdx, D);
  };
  return Is(S->getLHS(), S->getRHS()) || Is(S->getRHS(), S->getLHS());
}

/// The variable a comparison keeps large (\p Large) or small.
const VarDecl *comparedVar(const Expr *Leaf, bool Large) {
  const auto *Cmp = dyn_cast<BinaryOperator>(Leaf);
  if (!Cmp || !Cmp->isRelationalOp())
    return nullptr;
  bool Greater = Cmp->getOpcode() == BO_GT || Cmp->getOpcode() == BO_GE;
  const Expr *E = Greater == Large ? Cmp->getLHS() : Cmp->getRHS();
  return refVar(E->IgnoreParenImpCasts());
}

bool staysWithinBound(const Expr *Cond, const VarSet &GI);

/// `v >= n || ...` or `!(v < n && ...)`: true whenever some global index in
/// \p GI is past its bound.
bool exitsPastBound(const Expr *Cond, const VarSet &GI) {
  bool Found = false;
  forEachLeaf(Cond, BO_LOr, [&](const Expr *Leaf) {
    if (const auto *Not = dyn_cast<UnaryOperator>(Leaf);
        Not && Not->getOpcode() == UO_LNot) {
      Found |= staysWithinBound(Not->getSubExpr(), GI);
      return;
    }
    const VarDecl *V = comparedVar(Leaf, /*Large=*/true);
    Found |= V && GI.contains(V);
  });
  return Found;
}

/// `v < n && ...` or `!(v >= n || ...)`: true only when some global index
/// in \p GI is within its bound.
bool staysWithinBound(const Expr *Cond, const VarSet &GI) {
  bool Found = false;
  forEachLeaf(Cond, BO_LAnd, [&](const Expr *Leaf) {
    if (const auto *Not = dyn_cast<UnaryOperator>(Leaf);
        Not && Not->getOpcode() == UO_LNot) {
      Found |= exitsPastBound(Not->getSubExpr(), GI);
      return;
    }
    const VarDecl *V = comparedVar(Leaf, /*Large=*/false);
    Found |= V && GI.contains(V);
  });
  return Found;
}

bool isReturn(const Stmt *S) {
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(S))
    return C->size() == 1 && isReturn(C->body_front());
  return isa_and_nonnull<ReturnStmt>(S);
}

/// `if (COND) return;`
bool isEarlyReturn(const IfStmt &If) {
  return !If.getElse() && !If.getInit() && !If.getConditionVariable() &&
         isReturn(If.getThen());
}

llvm::ArrayRef<const Stmt *> childrenOf(const CompoundStmt &C) {
  return llvm::ArrayRef<const Stmt *>(C.body_begin(), C.body_end());
}

/// A jam loop of an earlier coarsening (`for (int optiml_cy = 0; ...)`):
/// its body re-declares that dimension's index variables, so it is only
/// ever wrapped whole.
bool isJamLoop(const ForStmt &F) {
  const auto *D = dyn_cast_or_null<DeclStmt>(F.getInit());
  const auto *V =
      D && D->isSingleDecl() ? dyn_cast<VarDecl>(D->getSingleDecl()) : nullptr;
  return V && V->getName().starts_with("optiml_c");
}

/// The first break or continue in \p S that leaves \p S.
const Stmt *escapingJump(const Stmt *S, bool InLoop, bool InSwitch) {
  if (!S)
    return nullptr;
  if (isa<BreakStmt>(S))
    return InLoop || InSwitch ? nullptr : S;
  if (isa<ContinueStmt>(S))
    return InLoop ? nullptr : S;
  bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  bool Switch = isa<SwitchStmt>(S);
  for (const Stmt *C : S->children())
    if (const Stmt *J = escapingJump(C, InLoop || Loop, InSwitch || Switch))
      return J;
  return nullptr;
}

/// The first statement in \p S that touches memory without an enclosing
/// `if` that keeps a global index of \p GI within its bound.
const Stmt *unboundedAccess(const Stmt *S, const VarSet &GI, ASTContext &Ctx) {
  if (!S)
    return nullptr;
  if (const auto *A = dyn_cast<AttributedStmt>(S))
    return unboundedAccess(A->getSubStmt(), GI, Ctx);
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (touchesGlobal(If->getCond(), Ctx) || If->getInit())
      return S;
    if (const Stmt *E = unboundedAccess(If->getElse(), GI, Ctx))
      return E;
    if (staysWithinBound(If->getCond(), GI))
      return nullptr;
    return unboundedAccess(If->getThen(), GI, Ctx);
  }
  if (const auto *C = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : C->body())
      if (const Stmt *E = unboundedAccess(Child, GI, Ctx))
        return E;
    return nullptr;
  }
  if (const auto *F = dyn_cast<ForStmt>(S)) {
    if (touchesGlobal(F->getInit(), Ctx) || touchesGlobal(F->getCond(), Ctx) ||
        touchesGlobal(F->getInc(), Ctx))
      return S;
    return unboundedAccess(F->getBody(), GI, Ctx);
  }
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return touchesGlobal(W->getCond(), Ctx)
               ? S
               : unboundedAccess(W->getBody(), GI, Ctx);
  return touchesGlobal(S, Ctx) ? S : nullptr;
}

/// Decides the JamAction of every walked statement. Which variables each
/// copy needs its own of and which statements depend on the copy decide
/// each other, so the walk repeats until the private set is stable.
class JamClassifier {
public:
  JamClassifier(const CompoundStmt &Body, CoarsenPlan &Plan, const VarSet &GI,
                ASTContext &Ctx)
      : Body(Body), Plan(Plan), GI(GI), Ctx(Ctx),
        Index(Plan.IndexVars.begin(), Plan.IndexVars.end()) {}

  llvm::Error run();

private:
  llvm::Error walkList(llvm::ArrayRef<const Stmt *> Stmts, bool TopLevel);
  llvm::Error walkBody(const Stmt *S);
  llvm::Expected<JamAction> classify(const Stmt *S, bool TopLevel,
                                     bool Last);
  llvm::Expected<JamAction> classifyDecl(const DeclStmt &D);
  llvm::Expected<JamAction> descendOrJam(const Stmt *S);
  llvm::Error guard(const Expr *Cond, bool Exits);
  llvm::Expected<JamAction> guardBlock(const IfStmt &If);
  bool reCheckable(const Expr *Cond) const;
  llvm::Error privatizable(const VarDecl &V);
  llvm::Error checkJammed() const;
  void jam(const Stmt *S, const Stmt *Part);
  void notePrivate(const VarDecl *V);

  bool dependent(const Stmt *S) const {
    return S && (refersTo(S, Index) || refersTo(S, Private) ||
                 anyNode(S,
                         [&](const Stmt *N) {
                           return isBuiltin(N, BuiltinRef::BlockIdx, Plan.Dim);
                         }) ||
                 hasEffects(S, Ctx) || (AfterGuard && touchesGlobal(S, Ctx)));
  }

  const CompoundStmt &Body;
  CoarsenPlan &Plan;
  const VarSet &GI;
  ASTContext &Ctx;
  VarSet Index, Private;
  bool Changed = false, AfterGuard = false, AfterBoundGuard = false;
  /// Jammed statements (or initializers) that touch memory before a bound
  /// check that stops the extra copies.
  std::vector<const Stmt *> Unbounded;
  std::vector<const Stmt *> Jammed;
};

llvm::Error JamClassifier::run() {
  do {
    Changed = AfterGuard = AfterBoundGuard = false;
    Plan.Actions.clear();
    Plan.Guarded.clear();
    Unbounded.clear();
    Jammed.clear();
    if (llvm::Error E = walkList(childrenOf(Body), /*TopLevel=*/true))
      return E;
  } while (Changed);
  Plan.Private.clear();
  for (const auto &[S, Action] : Plan.Actions)
    if (Action == JamAction::Privatize)
      Plan.Private.insert(cast<VarDecl>(cast<DeclStmt>(S)->getSingleDecl()));
  return checkJammed();
}

llvm::Error JamClassifier::checkJammed() const {
  for (const Stmt *S : Jammed)
    if (const Stmt *J = escapingJump(S, false, false))
      return illegalAt(J->getBeginLoc(), Ctx,
                       "this jump depends on the copy but leaves a loop that "
                       "all copies share");
  // The first global index in declaration order names the bound to check.
  const VarDecl *First = *llvm::find_if(
      Plan.IndexVars, [&](const VarDecl *V) { return GI.contains(V); });
  for (const Stmt *S : Unbounded)
    if (const Stmt *E = unboundedAccess(S, GI, Ctx))
      return illegalAt(E->getBeginLoc(), Ctx,
                       "this statement touches memory before the global index "
                       "'" +
                           First->getName() +
                           "' is checked against the problem bound, so the "
                           "extra copies of the last blocks would run it");
  for (const VarDecl *V : Plan.IndexVars)
    if (refersTo(V->getInit(), Plan.Private))
      return illegalAt(V->getLocation(), Ctx,
                       "the index variable '" + V->getName() +
                           "' is computed from a variable each copy has its "
                           "own of");
  return llvm::Error::success();
}

llvm::Error JamClassifier::walkList(llvm::ArrayRef<const Stmt *> Stmts,
                                    bool TopLevel) {
  for (const Stmt *S : Stmts) {
    auto Action = classify(S, TopLevel, S == Stmts.back());
    if (!Action)
      return Action.takeError();
    Plan.Actions[S] = *Action;
  }
  return llvm::Error::success();
}

llvm::Error JamClassifier::walkBody(const Stmt *S) {
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    return walkList(childrenOf(*C), /*TopLevel=*/false);
  return walkList(S, /*TopLevel=*/false);
}

void JamClassifier::notePrivate(const VarDecl *V) {
  if (Private.insert(V).second)
    Changed = true;
}

/// Records a statement (or, for a private declaration, its initializer
/// \p Part) that runs once per copy.
void JamClassifier::jam(const Stmt *S, const Stmt *Part) {
  Jammed.push_back(Part);
  if (touchesGlobal(Part, Ctx)) {
    if (AfterGuard)
      Plan.Guarded.insert(S);
    if (!AfterBoundGuard)
      Unbounded.push_back(Part);
  }
  // What it changes and lives outside it, each copy needs its own of.
  SourceRange Range = Part->getSourceRange();
  auto F = [&](const Stmt *N) {
    const VarDecl *V = refVar(N);
    if (V && V->isLocalVarDecl() && !Range.fullyContains(V->getSourceRange()) &&
        modifies(*cast<DeclRefExpr>(N), Ctx))
      notePrivate(V);
  };
  forEachNode(Part, F);
}

/// `if (COND) { ... }` with nothing after it in the kernel: the same as
/// `if (!(COND)) return;` followed by its statements. Only worth splitting
/// when it holds a loop, whose iterations the copies then share (register
/// blocking); straight-line statements are as well copied whole.
static bool isGuardBlock(const IfStmt &If) {
  return !If.getElse() && !If.getInit() && !If.getConditionVariable() &&
         anyNode(If.getThen(), [](const Stmt *N) {
           return isa<ForStmt, WhileStmt, DoStmt>(N);
         });
}

llvm::Expected<JamAction>
JamClassifier::classify(const Stmt *S, bool TopLevel, bool Last) {
  const Stmt *Inner = S;
  if (const auto *A = dyn_cast<AttributedStmt>(S))
    Inner = A->getSubStmt();
  if (const auto *D = dyn_cast<DeclStmt>(Inner))
    return classifyDecl(*D);
  if (const auto *If = dyn_cast<IfStmt>(Inner);
      TopLevel && If && isEarlyReturn(*If)) {
    if (!dependent(If->getCond()))
      return JamAction::Keep;
    if (llvm::Error E = guard(If->getCond(), /*Exits=*/true))
      return E;
    return JamAction::Guard;
  }
  // A top-level list ends the kernel: the body's, or a guard block's.
  // Otherwise (a condition that cannot be re-checked) it is copied whole.
  if (const auto *If = dyn_cast<IfStmt>(Inner);
      TopLevel && Last && If && isGuardBlock(*If) &&
      dependent(If->getCond()) && reCheckable(If->getCond()))
    return guardBlock(*If);
  if (!dependent(S))
    return JamAction::Keep;
  return descendOrJam(S);
}

llvm::Expected<JamAction> JamClassifier::descendOrJam(const Stmt *S) {
  const Stmt *Inner = S;
  if (const auto *A = dyn_cast<AttributedStmt>(S))
    Inner = A->getSubStmt();
  const Stmt *Body = nullptr, *Else = nullptr;
  if (const auto *C = dyn_cast<CompoundStmt>(Inner))
    Body = C;
  if (const auto *F = dyn_cast<ForStmt>(Inner);
      F && !isJamLoop(*F) && !F->getConditionVariable() &&
      !dependent(F->getInit()) && !dependent(F->getCond()) &&
      !dependent(F->getInc()))
    Body = F->getBody();
  if (const auto *W = dyn_cast<WhileStmt>(Inner);
      W && !W->getConditionVariable() && !dependent(W->getCond()))
    Body = W->getBody();
  if (const auto *If = dyn_cast<IfStmt>(Inner); If && !If->getInit() &&
                                                !If->getConditionVariable() &&
                                                !dependent(If->getCond()))
    Body = If->getThen(), Else = If->getElse();
  if (!Body) {
    jam(S, S);
    return JamAction::Jam;
  }
  if (llvm::Error E = walkBody(Body))
    return E;
  if (Else)
    if (llvm::Error E = walkBody(Else))
      return E;
  return JamAction::Descend;
}

llvm::Error JamClassifier::privatizable(const VarDecl &V) {
  auto Refuse = [&](const llvm::Twine &Why) {
    return illegalAt(V.getLocation(), Ctx,
                     "each copy needs its own '" + V.getName() + "', but " +
                         Why);
  };
  if (V.getType()->isReferenceType())
    return Refuse("it is a reference");
  if (!V.isLocalVarDecl() || V.isStaticLocal())
    return Refuse("it is not an automatic local variable");
  if (V.getType()->isVariableArrayType())
    return Refuse("its array size is not a constant");
  if (V.getInit() && V.getType()->isArrayType())
    return Refuse("it is an array with an initializer");
  if (V.getInit() && V.getInitStyle() != VarDecl::CInit)
    return Refuse("it is not initialized with '='");
  return llvm::Error::success();
}

llvm::Expected<JamAction> JamClassifier::classifyDecl(const DeclStmt &D) {
  auto Vars = llvm::map_range(
      D.decls(), [](const Decl *X) { return dyn_cast<VarDecl>(X); });
  bool AnyIndex = llvm::any_of(
      Vars, [&](const VarDecl *V) { return V && Index.contains(V); });
  if (AnyIndex) {
    for (const VarDecl *V : Vars)
      if (!V || !Index.contains(V))
        return illegalAt(D.getBeginLoc(), Ctx,
                         "declare the index variables of this statement in a "
                         "declaration of their own");
    return JamAction::Drop;
  }
  bool AnyPrivate = llvm::any_of(
      Vars, [&](const VarDecl *V) { return V && Private.contains(V); });
  if (!AnyPrivate && !dependent(&D))
    return JamAction::Keep;
  const auto *V =
      D.isSingleDecl() ? dyn_cast<VarDecl>(D.getSingleDecl()) : nullptr;
  if (!V)
    return illegalAt(D.getBeginLoc(), Ctx,
                     "this declaration depends on the copy; declare its "
                     "variables one per statement");
  if (llvm::Error E = privatizable(*V))
    return E;
  notePrivate(V);
  if (V->getInit())
    jam(&D, V->getInit());
  return JamAction::Privatize;
}

/// A removed `if (COND) return;` (\p Exits) or `if (COND) { ... }` is
/// re-checked before every later statement that touches memory, so COND
/// must give the same answer each time.
llvm::Error JamClassifier::guard(const Expr *Cond, bool Exits) {
  const char *What = Exits ? "early return" : "bounds guard";
  if (BoundsGuard::touchesMemory(Cond))
    return illegalAt(Cond->getBeginLoc(), Ctx,
                     std::string("this ") + What +
                         " depends on the copy and reads memory, so it "
                         "cannot be re-checked for each copy");
  if (!reCheckable(Cond))
    return illegalAt(Cond->getBeginLoc(), Ctx,
                     std::string("this ") + What +
                         " depends on the copy and on a variable that "
                         "changes later, so it cannot be re-checked for "
                         "each copy");
  AfterGuard = true;
  AfterBoundGuard |=
      Exits ? exitsPastBound(Cond, GI) : staysWithinBound(Cond, GI);
  return llvm::Error::success();
}

/// No memory read, and no variable the kernel changes: the same answer
/// wherever it is checked.
bool JamClassifier::reCheckable(const Expr *Cond) const {
  auto Changes = [&](const Stmt *N) -> bool {
    const VarDecl *V = refVar(N);
    return V && !neverModified(*V, Body, Ctx);
  };
  return !BoundsGuard::touchesMemory(Cond) && !anyNode(Cond, Changes);
}

/// The guard block's condition becomes a guard of each later statement
/// that touches memory, and its statements are walked as the kernel's own
/// (they end the kernel too), so they jam with the copies instead of the
/// whole block being copied per copy.
llvm::Expected<JamAction> JamClassifier::guardBlock(const IfStmt &If) {
  if (llvm::Error E = guard(If.getCond(), /*Exits=*/false))
    return E;
  const Stmt *Then = If.getThen();
  llvm::Error E =
      isa<CompoundStmt>(Then)
          ? walkList(childrenOf(*cast<CompoundStmt>(Then)), /*TopLevel=*/true)
          : walkList(Then, /*TopLevel=*/true);
  if (E)
    return E;
  return JamAction::GuardBlock;
}

/// Kernel-wide rules that do not depend on the statement walk.
class KernelRules {
public:
  KernelRules(const FunctionDecl &Kernel, unsigned Dim, ASTContext &Ctx)
      : Kernel(Kernel), Body(*Kernel.getBody()), Dim(Dim), Ctx(Ctx) {}

  llvm::Error checkGeometry() const;
  llvm::Error checkControl() const;
  llvm::Error checkVariables() const;
  llvm::Expected<std::vector<const VarDecl *>> indexVars() const;
  llvm::Error checkWrites(const VarSet &Index) const;

private:
  bool isIndexVar(const VarDecl &V, const VarSet &Index) const;
  llvm::Error checkWrittenParam(const ParmVarDecl &P,
                                const VarSet &Index) const;
  llvm::Error checkStore(const Expr &Target) const;
  std::string axis() const { return AxisNames[Dim]; }

  const FunctionDecl &Kernel;
  const Stmt &Body;
  unsigned Dim;
  ASTContext &Ctx;
};

/// Whether \p F (called by the kernel) reads blockIdx or gridDim.
static bool
readsBlockGeometry(const FunctionDecl *F,
                   llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  if (!F || !F->hasBody() || !Seen.insert(F).second)
    return false;
  return anyNode(F->getBody(), [&](const Stmt *N) {
    if (std::optional<BuiltinRef> R =
            isBuiltinRefNode(N) ? asBuiltinRef(cast<Expr>(N)) : std::nullopt)
      return R->Which == BuiltinRef::BlockIdx ||
             R->Which == BuiltinRef::GridDim;
    const auto *C = dyn_cast<CallExpr>(N);
    return C && readsBlockGeometry(C->getDirectCallee(), Seen);
  });
}

llvm::Error KernelRules::checkGeometry() const {
  const Stmt *Grid = nullptr, *Call = nullptr;
  auto F = [&](const Stmt *N) {
    if (!Grid && isBuiltin(N, BuiltinRef::GridDim, Dim))
      Grid = N;
    llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
    if (const auto *C = dyn_cast<CallExpr>(N);
        !Call && C && readsBlockGeometry(C->getDirectCallee(), Seen))
      Call = N;
  };
  forEachNode(&Body, F);
  if (Grid)
    return illegalAt(Grid->getBeginLoc(), Ctx,
                     "the kernel reads gridDim." + axis() +
                         ", which coarsening divides (grid-stride loops are "
                         "not coarsened)");
  if (Call)
    return illegalAt(Call->getBeginLoc(), Ctx,
                     "the kernel calls '" +
                         cast<CallExpr>(Call)->getDirectCallee()->getName() +
                         "', which reads the block geometry");
  return llvm::Error::success();
}

llvm::Error KernelRules::checkControl() const {
  const auto *Top = cast<CompoundStmt>(&Body);
  llvm::SmallPtrSet<const Stmt *, 4> Allowed;
  for (const Stmt *S : Top->body())
    if (const auto *If = dyn_cast<IfStmt>(S); If && isEarlyReturn(*If))
      Allowed.insert(If->getThen());
  const Stmt *Bad = nullptr;
  auto F = [&](const Stmt *N) {
    if (Bad)
      return;
    if (isa<ReturnStmt>(N) && !Allowed.contains(N) &&
        !llvm::any_of(Allowed, [&](const Stmt *A) {
          return isa<CompoundStmt>(A) && *A->child_begin() == N;
        }))
      Bad = N;
    if (isa<GotoStmt, IndirectGotoStmt, LabelStmt>(N))
      Bad = N;
  };
  forEachNode(&Body, F);
  if (!Bad)
    return llvm::Error::success();
  if (isa<ReturnStmt>(Bad))
    return illegalAt(Bad->getBeginLoc(), Ctx,
                     "this return is not a top-level 'if (...) return;', so "
                     "the copies of a thread could not stop one by one");
  return illegalAt(Bad->getBeginLoc(), Ctx,
                   "goto and labels cannot be split among jammed copies");
}

/// Global variables and parameters are shared by the copies of a thread:
/// they may only be read.
llvm::Error KernelRules::checkVariables() const {
  const DeclRefExpr *Bad = nullptr;
  auto F = [&](const Stmt *N) {
    const VarDecl *V = refVar(N);
    if (!Bad && V && (isa<ParmVarDecl>(V) || isGlobalVar(V, Ctx)) &&
        modifies(*cast<DeclRefExpr>(N), Ctx))
      Bad = cast<DeclRefExpr>(N);
  };
  forEachNode(&Body, F);
  if (!Bad)
    return llvm::Error::success();
  return illegalAt(Bad->getBeginLoc(), Ctx,
                   "the kernel changes '" + Bad->getDecl()->getName() +
                       "', which the copies of a thread would share");
}

/// A local integer computed once from blockIdx.D (or from another such
/// variable) and never changed: it can be recomputed for each copy.
bool KernelRules::isIndexVar(const VarDecl &V, const VarSet &Index) const {
  const Expr *Init = V.getInit();
  if (!V.isLocalVarDecl() || !Init || !V.getType()->isIntegerType() ||
      V.isStaticLocal())
    return false;
  if (!anyNode(Init, [&](const Stmt *N) {
        return isBuiltin(N, BuiltinRef::BlockIdx, Dim) ||
               Index.contains(refVar(N));
      }))
    return false;
  DynTypedNode Decl = parentOf(DynTypedNode::create(V), Ctx);
  if (!parentOf(Decl, Ctx).get<CompoundStmt>())
    return false; // Declared in a for-init or condition.
  if (BoundsGuard::touchesMemory(Init) || !neverModified(V, Body, Ctx))
    return false;
  return !anyNode(Init, [&](const Stmt *N) {
    const VarDecl *W = refVar(N);
    return W && !Index.contains(W) && !neverModified(*W, Body, Ctx);
  });
}

llvm::Expected<std::vector<const VarDecl *>> KernelRules::indexVars() const {
  std::vector<const VarDecl *> Vars;
  VarSet Index;
  auto Collect = [&](const Stmt *N) {
    if (const auto *D = dyn_cast<DeclStmt>(N))
      for (const Decl *X : D->decls())
        if (const auto *V = dyn_cast<VarDecl>(X); V && isIndexVar(*V, Index))
          Vars.push_back(V), Index.insert(V);
  };
  forEachNode(&Body, Collect);
  // blockIdx.D may appear only in their initializers.
  llvm::SmallPtrSet<const Stmt *, 8> Covered;
  for (const VarDecl *V : Vars) {
    auto Mark = [&](const Stmt *N) { Covered.insert(N); };
    forEachNode(V->getInit(), Mark);
  }
  const Stmt *Stray = nullptr;
  auto Find = [&](const Stmt *N) {
    if (!Stray && isBuiltin(N, BuiltinRef::BlockIdx, Dim) &&
        !Covered.contains(N))
      Stray = N;
  };
  forEachNode(&Body, Find);
  if (Stray)
    return illegalAt(Stray->getBeginLoc(), Ctx,
                     "blockIdx." + axis() +
                         " is used outside the initializer of an index "
                         "variable (a local integer computed once and never "
                         "changed), so it cannot be recomputed for each copy");
  return Vars;
}

/// A store to memory goes to an element of a pointer parameter, whose
/// accesses checkWrittenParam then checks; or to a local array.
llvm::Error KernelRules::checkStore(const Expr &Target) const {
  const Expr *T = Target.IgnoreParens();
  for (const auto *M = dyn_cast<MemberExpr>(T); M && !M->isArrow();
       M = dyn_cast<MemberExpr>(T))
    T = M->getBase()->IgnoreParens();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(T)) {
    if (isLocalArrayElement(*A) || isa_and_nonnull<ParmVarDecl>(refVar(
                                       A->getBase()->IgnoreParenImpCasts())))
      return llvm::Error::success();
  } else if (!isa<UnaryOperator, MemberExpr>(T)) {
    return llvm::Error::success(); // A variable: checkVariables' business.
  }
  return illegalAt(T->getBeginLoc(), Ctx,
                   "this stores through a pointer that is not a kernel "
                   "parameter, so the copies cannot be shown to write "
                   "distinct elements");
}

/// Whether the element \p A is only read or assigned where it is used
/// (its address does not escape).
static bool plainElementUse(const ArraySubscriptExpr &A, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(A);
  const Expr *Child = &A;
  while (true) {
    DynTypedNode Parent = parentOf(Node, Ctx);
    const Expr *Up = Parent.get<Expr>();
    if (isa_and_nonnull<ParenExpr>(Up) ||
        (isa_and_nonnull<MemberExpr>(Up) && !cast<MemberExpr>(Up)->isArrow())) {
      Child = Up, Node = Parent;
      continue;
    }
    if (const auto *C = dyn_cast_or_null<ImplicitCastExpr>(Up))
      return C->getCastKind() == CK_LValueToRValue;
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(Up))
      return !B->isAssignmentOp() || B->getLHS() == Child;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Up))
      return U->isIncrementDecrementOp();
    return false;
  }
}

llvm::Error KernelRules::checkWrittenParam(const ParmVarDecl &P,
                                           const VarSet &Index) const {
  // Atomic updates whose old value is unused commute: the copies may update
  // the same elements, as the original's threads did.
  if (onlyAtomicUpdates(P, Body, Ctx))
    return llvm::Error::success();
  std::string First;
  for (const DeclRefExpr *U : usesOf(P, Body, Ctx)) {
    DynTypedNode Node = DynTypedNode::create(*U);
    DynTypedNode Parent = parentOf(Node, Ctx);
    while (Parent.get<ImplicitCastExpr>() || Parent.get<ParenExpr>())
      Node = Parent, Parent = parentOf(Node, Ctx);
    const auto *A = Parent.get<ArraySubscriptExpr>();
    if (!A || A->getBase() != Node.get<Expr>())
      return illegalAt(U->getBeginLoc(), Ctx,
                       "'" + P.getName() +
                           "' is written, and this use is not an element "
                           "access " +
                           P.getName() +
                           "[index], so the copies may write the same memory");
    std::string Text = textOf(A->getIdx()->getSourceRange(), Ctx);
    if (!refersTo(A->getIdx(), Index))
      return illegalAt(A->getBeginLoc(), Ctx,
                       "'" + P.getName() + "' is written, and the index '" +
                           Text + "' does not depend on blockIdx." + axis() +
                           ", so all copies would touch the same element");
    if (First.empty())
      First = Text;
    if (Text != First)
      return illegalAt(A->getBeginLoc(), Ctx,
                       "'" + P.getName() +
                           "' is written and accessed both at '" + First +
                           "' and at '" + Text +
                           "', so one copy may touch another's element");
    if (!plainElementUse(*A, Ctx))
      return illegalAt(A->getBeginLoc(), Ctx,
                       "the address of this element of '" + P.getName() +
                           "' escapes (an atomic, a pointer), so the copies "
                           "cannot be shown independent");
  }
  return llvm::Error::success();
}

llvm::Error KernelRules::checkWrites(const VarSet &Index) const {
  llvm::Error Err = llvm::Error::success();
  auto F = [&](const Stmt *N) {
    const Expr *Target = nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isAssignmentOp())
      Target = B->getLHS();
    if (const auto *U = dyn_cast<UnaryOperator>(N);
        U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf))
      Target = U->getSubExpr();
    if (Target && !Err)
      Err = checkStore(*Target);
  };
  forEachNode(&Body, F);
  if (Err)
    return Err;
  BufferAccess Access(Kernel, Ctx);
  for (const ParmVarDecl *P : Kernel.parameters())
    if (P->getType()->isPointerType() && Access.mayWrite(*P))
      if (llvm::Error E = checkWrittenParam(*P, Index))
        return E;
  return llvm::Error::success();
}

} // namespace

bool CoarsenLegality::readsBlockIdx(const FunctionDecl &Kernel, unsigned Dim) {
  return anyNode(Kernel.getBody(), [&](const Stmt *N) {
    return isBuiltin(N, BuiltinRef::BlockIdx, Dim);
  });
}

llvm::Expected<CoarsenPlan> CoarsenLegality::analyze(const FunctionDecl &Kernel,
                                                     unsigned Dim,
                                                     unsigned Factor,
                                                     ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  if (!Body)
    return notApplicableAt(Kernel.getLocation(), Ctx, "the kernel has no body");
  CoarsenPlan Plan;
  Plan.Dim = Dim;
  Plan.Factor = Factor;
  if (llvm::StringRef(textOf(Body->getSourceRange(), Ctx))
          .contains(Plan.copyVar()))
    return notApplicableAt(
        Kernel.getLocation(), Ctx,
        "'" + Kernel.getName() + "' is already coarsened along " +
            AxisNames[Dim] + " (it uses " + Plan.copyVar() + ")");
  KernelRules Rules(Kernel, Dim, Ctx);
  if (llvm::Error E =
          checkNoCooperation(Kernel, CooperationReasons::forMerging(), Ctx))
    return E;
  if (llvm::Error E = Rules.checkGeometry())
    return E;
  if (llvm::Error E = Rules.checkControl())
    return E;
  if (llvm::Error E = Rules.checkVariables())
    return E;
  auto Index = Rules.indexVars();
  if (!Index)
    return Index.takeError();
  Plan.IndexVars = std::move(*Index);
  VarSet IndexSet(Plan.IndexVars.begin(), Plan.IndexVars.end()), GI;
  // Coarsening keeps the block, so an index that writes its extent as a
  // number (`blockIdx.y * 16`) stays right wherever every launch has it.
  std::optional<uint64_t> Extent;
  if (auto Block = kernelBlock(Kernel, Ctx))
    Extent = (*Block)[Dim];
  else
    llvm::consumeError(Block.takeError());
  for (const VarDecl *V : Plan.IndexVars)
    if (isGlobalIndex(V->getInit(), Dim, Extent, Ctx))
      GI.insert(V);
  if (GI.empty())
    return illegalAt(Kernel.getLocation(), Ctx,
                     "'" + Kernel.getName() +
                         "' keeps no global index blockIdx." + AxisNames[Dim] +
                         " * blockDim." + AxisNames[Dim] + " + threadIdx." +
                         AxisNames[Dim] + " in a variable");
  if (llvm::Error E = Rules.checkWrites(IndexSet))
    return E;
  JamClassifier Classifier(*Body, Plan, GI, Ctx);
  if (llvm::Error E = Classifier.run())
    return E;
  auto Launches = dividableLaunches(Kernel, Dim, Ctx);
  if (!Launches)
    return Launches.takeError();
  Plan.Launches = std::move(*Launches);
  return Plan;
}
