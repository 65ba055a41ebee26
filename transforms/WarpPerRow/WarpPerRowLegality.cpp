//===- WarpPerRowLegality.cpp - when a row's sum may be split -------------===//

#include "transforms/WarpPerRow/WarpPerRowLegality.h"
#include "optiml/Analysis/Legality/BufferRoot.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/DistinctBuffers.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/ThreadGeometry.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"
#include "optiml/Rewrite/KernelIdentifiers.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace optiml;
using namespace clang;

static llvm::Error checkLoop(const CanonicalLoop &L, ASTContext &Ctx);

/// The names the rewrite declares.
static const char *const OwnNames[] = {
    "optiml_lane", "optiml_mask", "optiml_rows", "optiml_row", "optiml_offset"};

/// The variable an assignment to \p LHS changes when it is a local of the
/// function (through parentheses, `.member` and elements of a local array),
/// else null: a store to memory.
static const VarDecl *localTarget(const Expr *LHS) {
  while (true) {
    LHS = LHS->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MemberExpr>(LHS); M && !M->isArrow()) {
      LHS = M->getBase();
      continue;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(LHS);
        A && A->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) {
      LHS = A->getBase();
      continue;
    }
    break;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(LHS);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType())
    return nullptr;
  return V;
}

/// A call of a trivial special member (a struct's implicit copy), which
/// only copies.
static bool isTrivialCall(const CallExpr &Call) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(Call.getDirectCallee());
  return M && M->isTrivial();
}

/// The changed expression of an assignment or increment, or null. A class
/// type's implicit `=` (a float3) assigns too.
static const Expr *assignedBy(const Stmt *S) {
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    return B->getLHS();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && Op->isAssignmentOp() && isTrivialCall(*Op))
    return Op->getArg(0);
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->isIncrementDecrementOp())
    return U->getSubExpr();
  return nullptr;
}

namespace {

/// The first thing a statement does besides computing and assigning the
/// function's locals: a store, a call that may have side effects, asm.
class SideEffects {
public:
  SideEffects(ASTContext &Ctx, unsigned Depth = 0) : Ctx(Ctx), Depth(Depth) {}

  const Stmt *first(const Stmt *S) {
    if (!S)
      return nullptr;
    if (const Expr *LHS = assignedBy(S); LHS && !localTarget(LHS))
      return S;
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && !isPure(*Call))
      return S;
    if (isa<AsmStmt, CXXNewExpr, CXXDeleteExpr>(S))
      return S;
    for (const Stmt *Child : S->children())
      if (const Stmt *Found = first(Child))
        return Found;
    return nullptr;
  }

private:
  /// Math functions, the read-only loads (__ldg), and functions of this
  /// file whose bodies have no side effect themselves.
  bool isPure(const CallExpr &Call) {
    if (isPureMathCall(Call, Ctx) || isTrivialCall(Call))
      return true;
    const FunctionDecl *F = Call.getDirectCallee();
    if (!F || !F->getIdentifier())
      return false;
    if (F->getName().starts_with("__ldg") &&
        Ctx.getSourceManager().isInSystemHeader(F->getLocation()))
      return true;
    const FunctionDecl *Def = F->getDefinition();
    if (!Def || !Def->hasBody() || Depth >= 3 ||
        Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
      return false;
    for (const ParmVarDecl *P : Def->parameters())
      if (P->getType()->isReferenceType() &&
          !P->getType().getNonReferenceType().isConstQualified())
        return false;
    return SideEffects(Ctx, Depth + 1).first(Def->getBody()) == nullptr;
  }

  ASTContext &Ctx;
  unsigned Depth;
};

/// What no statement of a loop whose iterations the lanes share may do:
/// leave it early (lanes would stop at different iterations), call what
/// may have side effects, hold asm. \p InLoop: \p S is in a loop nested in
/// it, where `break` ends only that loop.
static llvm::Error splittable(const Stmt &S, bool InLoop, ASTContext &Ctx) {
  if (isa<ReturnStmt, GotoStmt>(S) || (isa<BreakStmt>(S) && !InLoop))
    return notApplicableAt(S.getBeginLoc(), Ctx,
                           "the loop can end early here: its lanes would "
                           "stop at different iterations");
  if (const auto *Call = dyn_cast<CallExpr>(&S);
      Call && SideEffects(Ctx).first(Call))
    return illegalAt(S.getBeginLoc(), Ctx,
                     "the loop calls '" +
                         textOf(Call->getCallee()->getSourceRange(), Ctx) +
                         "', which may have side effects");
  if (isa<AsmStmt>(S))
    return illegalAt(S.getBeginLoc(), Ctx, "the loop holds asm");
  return llvm::Error::success();
}

/// Checks \p S and every statement below it with splittable, then with
/// \p Visit, in source order.
static llvm::Error
walkSplittable(const Stmt *S, bool InLoop, ASTContext &Ctx,
               llvm::function_ref<llvm::Error(const Stmt &)> Visit) {
  if (!S)
    return llvm::Error::success();
  if (llvm::Error E = splittable(*S, InLoop, Ctx))
    return E;
  if (llvm::Error E = Visit(*S))
    return E;
  bool Nested = InLoop || isa<ForStmt, WhileStmt, DoStmt, SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (llvm::Error E = walkSplittable(Child, Nested, Ctx, Visit))
      return E;
  return llvm::Error::success();
}

/// The loop's body: what it reduces into, or why it may not be split.
class LoopBody {
public:
  LoopBody(const ForStmt &For, ASTContext &Ctx) : For(For), Ctx(Ctx) {}

  llvm::Expected<std::vector<RowReduction>> reductions() {
    for (const DeclStmt *D : nodesOf<DeclStmt>(For.getBody()))
      for (const Decl *Dcl : D->decls())
        if (const auto *V = dyn_cast<VarDecl>(Dcl))
          Own.insert(V);
    if (llvm::Error E =
            walkSplittable(For.getBody(), /*InLoop=*/false, Ctx,
                           [&](const Stmt &S) { return update(&S); }))
      return E;
    if (Reductions.empty())
      return notApplicableAt(For.getBeginLoc(), Ctx,
                             "the loop reduces into no local variable: only "
                             "a loop that sums (or takes a maximum or "
                             "minimum) is split across lanes");
    for (const RowReduction &R : Reductions)
      if (llvm::Error E = checkSum(*R.Var))
        return E;
    return Reductions;
  }

private:
  /// An assignment in the body: to its own locals, or a sum.
  llvm::Error update(const Stmt *S) {
    const Expr *LHS = assignedBy(S);
    if (!LHS)
      return llvm::Error::success();
    const VarDecl *V = localTarget(LHS);
    if (!V)
      return illegalAt(S->getBeginLoc(), Ctx,
                       "the loop stores to '" +
                           textOf(LHS->getSourceRange(), Ctx) +
                           "': only a loop that sums into registers is "
                           "split across lanes");
    if (Own.contains(V))
      return llvm::Error::success();
    std::string Combine;
    const DeclRefExpr *Self = sumOperand(*S, *V);
    if (!Self)
      Self = extremumOperand(*S, *V, Combine);
    if (!Self)
      return notApplicableAt(S->getBeginLoc(), Ctx,
                             "'" + V->getName() +
                                 "' is updated here but not summed (+=, -=, "
                                 "++) nor reduced by fmaxf, max, fminf or "
                                 "min: only those combine across lanes");
    auto Known = llvm::find_if(
        Reductions, [&](const RowReduction &R) { return R.Var == V; });
    if (Known == Reductions.end())
      Reductions.push_back({V, Combine});
    else if (Known->Combine != Combine)
      return notApplicableAt(S->getBeginLoc(), Ctx,
                             "'" + V->getName() +
                                 "' is reduced in two ways in the loop");
    Allowed.insert(cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()));
    if (Self != LHS->IgnoreParenImpCasts())
      Allowed.insert(Self);
    return llvm::Error::success();
  }

  /// The `V` argument of `V = f(V, e)` or `V = f(e, V)` where f is the
  /// maximum or minimum of two numbers (fmaxf, fmax, max, fminf, fmin,
  /// min), with \p Combine set to f as written; else null.
  const DeclRefExpr *extremumOperand(const Stmt &S, const VarDecl &V,
                                     std::string &Combine) {
    const auto *B = dyn_cast<BinaryOperator>(&S);
    if (!B || B->getOpcode() != BO_Assign)
      return nullptr;
    const auto *Call = dyn_cast<CallExpr>(B->getRHS()->IgnoreParenImpCasts());
    const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
    if (!F || !F->getIdentifier() || Call->getNumArgs() != 2 ||
        !isPureMathCall(*Call, Ctx))
      return nullptr;
    static const char *const Names[] = {"fmaxf", "fmax", "max",
                                        "fminf", "fmin", "min"};
    if (!llvm::is_contained(Names, F->getName()))
      return nullptr;
    for (const Expr *Arg : Call->arguments())
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
          Ref && Ref->getDecl() == &V) {
        Combine = textOf(Call->getCallee()->getSourceRange(), Ctx);
        return Ref;
      }
    return nullptr;
  }

  /// The reference to \p V that \p S adds to: its target for `+=`, `-=`,
  /// `++`, `--`, the `V` of `V + e`, `e + V` or `V - e` for `V = ...`;
  /// null when \p S is not a sum into \p V.
  static const DeclRefExpr *sumOperand(const Stmt &S, const VarDecl &V) {
    auto IsV = [&](const Expr *E) {
      const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return Ref && Ref->getDecl() == &V ? Ref : nullptr;
    };
    if (isa<UnaryOperator>(S))
      return IsV(cast<UnaryOperator>(S).getSubExpr());
    if (!isa<BinaryOperator>(S))
      return nullptr; // A class's `=`: not a sum of scalars.
    const auto &B = cast<BinaryOperator>(S);
    if (B.getOpcode() == BO_AddAssign || B.getOpcode() == BO_SubAssign)
      return IsV(B.getLHS());
    if (B.getOpcode() != BO_Assign || !IsV(B.getLHS()))
      return nullptr;
    const auto *R = dyn_cast<BinaryOperator>(B.getRHS()->IgnoreParenImpCasts());
    if (!R || (R->getOpcode() != BO_Add && R->getOpcode() != BO_Sub))
      return nullptr;
    if (const DeclRefExpr *L = IsV(R->getLHS()))
      return L;
    return R->getOpcode() == BO_Add ? IsV(R->getRHS()) : nullptr;
  }

  /// A sum is read nowhere in the loop but by its own updates, and has a
  /// type the shuffles take.
  llvm::Error checkSum(const VarDecl &V) {
    for (const DeclRefExpr *Use : usesOf(V, For, Ctx))
      if (!Allowed.contains(Use))
        return notApplicableAt(Use->getBeginLoc(), Ctx,
                               "the loop reads the partial sum '" +
                                   V.getName() +
                                   "', which differs from lane to lane");
    QualType T = V.getType().getCanonicalType();
    bool Shuffles = T->isFloatingType()
                        ? T->isSpecificBuiltinType(BuiltinType::Float) ||
                              T->isSpecificBuiltinType(BuiltinType::Double)
                        : T->isIntegerType() && !T->isBooleanType() &&
                              Ctx.getTypeSize(T) >= 32;
    if (!Shuffles)
      return notApplicableAt(V.getLocation(), Ctx,
                             "'" + V.getName() + "' is a " +
                                 V.getType().getAsString() +
                                 ", which warp shuffles do not take");
    return llvm::Error::success();
  }

  const ForStmt &For;
  ASTContext &Ctx;
  llvm::SmallPtrSet<const VarDecl *, 8> Own;
  std::vector<RowReduction> Reductions;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> Allowed;
};

/// A loop that writes the row's elements, a different one each iteration
/// (`out[row * n + j] = s * x[row * n + j]`): its lanes may take the
/// iterations in any order when no iteration reads what another writes.
class ElementLoop {
public:
  ElementLoop(const FunctionDecl &Kernel, const CanonicalLoop &L,
              ASTContext &Ctx)
      : Kernel(Kernel), L(L), Ctx(Ctx), Counter(IndexAtom::of(*L.IV)) {}

  llvm::Error check() {
    for (const DeclStmt *D : nodesOf<DeclStmt>(L.For->getBody()))
      for (const Decl *Dcl : D->decls())
        if (const auto *V = dyn_cast<VarDecl>(Dcl))
          Own.insert(V);
    if (llvm::Error E = walkSplittable(
            L.For->getBody(), /*InLoop=*/false, Ctx, [&](const Stmt &S) {
              const Expr *LHS = assignedBy(&S);
              return LHS ? assignment(S, *LHS) : llvm::Error::success();
            }))
      return E;
    if (Stores.empty())
      return notApplicableAt(L.For->getBeginLoc(), Ctx,
                             "the loop stores to no element");
    if (llvm::Error E = readsOnlyItsOwnElements())
      return E;
    if (llvm::Error E = checkDistinctBuffers(Kernel, Ctx))
      return E;
    return unreferencedAfter();
  }

private:
  struct Access {
    const ParmVarDecl *Buffer;
    IndexPolynomial Index;
  };

  /// Its own locals, or an element that moves with the counter.
  llvm::Error assignment(const Stmt &S, const Expr &LHS) {
    if (const VarDecl *V = localTarget(&LHS)) {
      if (Own.contains(V))
        return llvm::Error::success();
      return notApplicableAt(S.getBeginLoc(), Ctx,
                             "the loop changes '" + V->getName() +
                                 "', declared outside it");
    }
    const auto *Sub = dyn_cast<ArraySubscriptExpr>(LHS.IgnoreParenImpCasts());
    std::optional<Access> A = Sub ? access(*Sub) : std::nullopt;
    auto Step = A ? A->Index.coefficient(Counter) : std::nullopt;
    auto C = Step ? Step->asConstant() : std::nullopt;
    if (!C || *C == 0)
      return notApplicableAt(
          S.getBeginLoc(), Ctx,
          "the loop stores to '" + textOf(LHS.getSourceRange(), Ctx) +
              "', not an element that moves with '" + L.IV->getName() + "'");
    Stores.push_back(std::move(*A));
    return llvm::Error::success();
  }

  std::optional<Access> access(const ArraySubscriptExpr &E) {
    auto Root = bufferRootOf(*E.getBase(), Kernel, Ctx);
    std::optional<IndexPolynomial> Index =
        Root ? elementIndexOf(E, *Root, Ctx) : std::nullopt;
    if (!Index)
      return std::nullopt;
    return Access{Root->Param, std::move(*Index)};
  }

  /// The parameter a pointer variable points into, if any.
  const ParmVarDecl *bufferOf(const DeclRefExpr &Ref) {
    const auto *V = dyn_cast<VarDecl>(Ref.getDecl());
    if (!V || !V->getType()->isPointerType())
      return nullptr;
    if (const auto *P = dyn_cast<ParmVarDecl>(V))
      return P;
    auto Root = bufferRootOf(*V, Kernel, Ctx);
    return Root ? Root->Param : nullptr;
  }

  bool stored(const ParmVarDecl *P) const {
    return llvm::any_of(Stores, [&](const Access &A) { return A.Buffer == P; });
  }

  /// A stored buffer is reached in the loop only through elements it
  /// stores to, at the index it stores to.
  llvm::Error readsOnlyItsOwnElements() {
    llvm::SmallPtrSet<const DeclRefExpr *, 8> Allowed;
    for (const auto *Sub : nodesOf<ArraySubscriptExpr>(L.For->getBody())) {
      std::optional<Access> A = access(*Sub);
      if (!A || !stored(A->Buffer))
        continue;
      bool Own = llvm::any_of(Stores, [&](const Access &S) {
        return S.Buffer == A->Buffer && S.Index == A->Index;
      });
      if (!Own)
        return illegalAt(Sub->getBeginLoc(), Ctx,
                         "the loop reads '" +
                             textOf(Sub->getSourceRange(), Ctx) +
                             "', which another iteration may write");
      for (const auto *Ref : nodesOf<DeclRefExpr>(Sub->getBase()))
        Allowed.insert(Ref);
    }
    for (const auto *Ref : nodesOf<DeclRefExpr>(L.For->getBody()))
      if (const ParmVarDecl *P = bufferOf(*Ref);
          P && stored(P) && !Allowed.contains(Ref))
        return illegalAt(Ref->getBeginLoc(), Ctx,
                         "the loop uses '" + Ref->getDecl()->getName() +
                             "' other than through the elements it stores");
    return llvm::Error::success();
  }

  /// Lanes do not see each other's stores without a barrier: nothing after
  /// the loop may refer to what it stores to.
  llvm::Error unreferencedAfter() {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const auto *Ref : nodesOf<DeclRefExpr>(Kernel.getBody()))
      if (const ParmVarDecl *P = bufferOf(*Ref);
          P && stored(P) &&
          SM.isBeforeInTranslationUnit(L.For->getEndLoc(), Ref->getBeginLoc()))
        return notApplicableAt(Ref->getBeginLoc(), Ctx,
                               "'" + Ref->getDecl()->getName() +
                                   "' is used after the loop that stores "
                                   "to it");
    return llvm::Error::success();
  }

  const FunctionDecl &Kernel;
  const CanonicalLoop &L;
  ASTContext &Ctx;
  IndexAtom Counter;
  llvm::SmallPtrSet<const VarDecl *, 8> Own;
  std::vector<Access> Stores;
};

/// The statements around the loop, from the row's declaration down: what
/// every lane runs, what lane 0 alone runs, and the kernel's returns.
class Surroundings {
public:
  Surroundings(const FunctionDecl &Kernel, WarpPerRowPlan &Plan,
               ASTContext &Ctx)
      : Kernel(Kernel), Plan(Plan), Ctx(Ctx) {}

  /// Walks up from \p Loop to \p Body.
  llvm::Error classify(const Stmt &Loop, const CompoundStmt &Body) {
    const Stmt *Child = &Loop;
    while (true) {
      const Stmt *Parent =
          parentOf(DynTypedNode::create(*Child), Ctx).get<Stmt>();
      if (!Parent)
        return notApplicableAt(Loop.getBeginLoc(), Ctx,
                               "the loop is not in the kernel's body");
      if (llvm::Error E = level(*Parent, *Child, Parent == &Body))
        return E;
      if (Parent == &Body)
        return llvm::Error::success();
      Child = Parent;
    }
  }

private:
  llvm::Error level(const Stmt &Parent, const Stmt &Child, bool Outermost) {
    if (const auto *Block = dyn_cast<CompoundStmt>(&Parent))
      return block(*Block, Child, Outermost);
    const auto *If = dyn_cast<IfStmt>(&Parent);
    if (!If || !isa<CompoundStmt>(Child))
      return notApplicableAt(Parent.getBeginLoc(), Ctx,
                             "the loop sits in this statement: warp-per-row "
                             "needs it in { } blocks and ifs only, outside "
                             "any other loop");
    if (If->getInit() || If->getConditionVariable() || If->isConsteval())
      return notApplicableAt(If->getBeginLoc(), Ctx,
                             "an if with an init statement or a declared "
                             "condition is not handled");
    if (llvm::Error E = everyLane(*If->getCond()))
      return E;
    bool ThenIsOther = If->getThen() != &Child;
    const Stmt *Other = ThenIsOther ? If->getThen() : If->getElse();
    return Other ? laneZero(*Other, ThenIsOther) : llvm::Error::success();
  }

  llvm::Error block(const CompoundStmt &Block, const Stmt &Child,
                    bool Outermost) {
    bool Before = !Outermost, After = false;
    // Loops after the site in its own block may follow it onto the lanes
    // until a statement that only lane 0 runs.
    bool Following = &Child == Plan.Loop.For;
    for (const Stmt *S : Block.body()) {
      if (S == &Child) {
        Before = false, After = true;
        continue;
      }
      if (Outermost && S == Plan.RowDecl) {
        Before = true;
        continue;
      }
      if (Outermost && !Before && !After)
        continue; // Before the row: runs once per thread, as it did.
      if (After && Following) {
        if (follows(*S))
          continue;
        if (SideEffects(Ctx).first(S))
          Following = false;
      }
      if (llvm::Error E = Before ? everyLane(*S) : laneZero(*S))
        return E;
    }
    if (Outermost && Before)
      return notApplicableAt(Child.getBeginLoc(), Ctx,
                             "the loop comes before '" + Plan.Row->getName() +
                                 "' is declared");
    return llvm::Error::success();
  }

  /// Whether \p S is a loop the lanes stride too (it joins the plan's
  /// followers).
  bool follows(const Stmt &S) {
    const Stmt *Inner = &S;
    if (const auto *Pragma = dyn_cast<AttributedStmt>(&S))
      Inner = Pragma->getSubStmt();
    const auto *For = dyn_cast<ForStmt>(Inner);
    if (!For)
      return false;
    auto Loop = analyzeLoop(*For, Ctx);
    if (!Loop) {
      llvm::consumeError(Loop.takeError());
      return false;
    }
    if (llvm::Error E = checkLoop(*Loop, Ctx)) {
      llvm::consumeError(std::move(E));
      return false;
    }
    auto Reductions = LoopBody(*For, Ctx).reductions();
    if (Reductions) {
      Plan.Followers.push_back({*Loop, std::move(*Reductions), &S});
      return true;
    }
    llvm::consumeError(Reductions.takeError());
    if (llvm::Error E = ElementLoop(Kernel, *Loop, Ctx).check()) {
      llvm::consumeError(std::move(E));
      return false;
    }
    Plan.Followers.push_back({*Loop, {}, &S});
    return true;
  }

  /// Before the loop every lane runs \p S: it may not write memory.
  llvm::Error everyLane(const Stmt &S) {
    if (const Stmt *Effect = SideEffects(Ctx).first(&S))
      return illegalAt(Effect->getBeginLoc(), Ctx,
                       "this runs before the loop, on every lane of a row, "
                       "and may write memory");
    return returns(S);
  }

  /// After the loop every lane holds the same sums, so what only computes
  /// locals may run on all of them; what writes memory runs in lane 0. A
  /// declaration stays visible to every lane: it may have no side effect.
  llvm::Error laneZero(const Stmt &S, bool Braced = false) {
    const Stmt *Effect = SideEffects(Ctx).first(&S);
    if (!Effect)
      return returns(S);
    if (isa<DeclStmt>(S))
      return illegalAt(Effect->getBeginLoc(), Ctx,
                       "a declaration after the loop with a side effect: "
                       "every lane would run it");
    Plan.LaneZero.push_back({&S, Braced});
    return returns(S);
  }

  /// The kernel's returns in \p S, which become `continue`: none may sit
  /// in a loop or switch of \p S, where `continue` means something else.
  llvm::Error returns(const Stmt &S) {
    for (const ReturnStmt *R : nodesOf<ReturnStmt>(&S)) {
      DynTypedNode Node = DynTypedNode::create(*R);
      for (const Stmt *P = nullptr; (P = parentOf(Node, Ctx).get<Stmt>());
           Node = DynTypedNode::create(*P)) {
        if (isa<ForStmt, WhileStmt, DoStmt, SwitchStmt>(P))
          return notApplicableAt(R->getBeginLoc(), Ctx,
                                 "a return inside a loop or switch: the row's "
                                 "return becomes 'continue', which would "
                                 "mean that loop's");
        if (P == &S)
          break;
      }
      Plan.Returns.push_back(R);
    }
    return llvm::Error::success();
  }

  const FunctionDecl &Kernel;
  WarpPerRowPlan &Plan;
  ASTContext &Ctx;
};

} // namespace

/// The kernel's row: its only index variable, 1-D, declared alone in a
/// statement of the body.
static llvm::Error findRow(const FunctionDecl &Kernel, WarpPerRowPlan &Plan,
                           ASTContext &Ctx) {
  ThreadGeometry G = ThreadGeometry::of(Kernel, Ctx);
  if (!G.Strays.empty())
    return notApplicableAt(G.Strays.front().Where->getBeginLoc(), Ctx,
                           G.Strays.front().What +
                               ": warp-per-row regroups the threads, so the "
                               "kernel may use them only through a global "
                               "index");
  if (!G.LooseIndices.empty())
    return notApplicableAt(G.LooseIndices.front()->getBeginLoc(), Ctx,
                           "the global index is used without a variable");
  if (G.IndexDims[1] || G.IndexDims[2] || G.IndexVars.size() != 1 ||
      G.GridStrideDims[0])
    return notApplicableAt(Kernel.getLocation(), Ctx,
                           "'" + Kernel.getName() +
                               "' does not give each thread one row through "
                               "one x index variable (warp-per-row takes "
                               "1-D kernels without grid-stride loops)");
  Plan.Row = G.IndexVars.front();
  const auto *Body = cast<CompoundStmt>(Kernel.getBody());
  for (const Stmt *S : Body->body())
    if (const auto *D = dyn_cast<DeclStmt>(S);
        D && D->isSingleDecl() && D->getSingleDecl() == Plan.Row)
      Plan.RowDecl = D;
  if (!Plan.RowDecl)
    return notApplicableAt(Plan.Row->getLocation(), Ctx,
                           "'" + Plan.Row->getName() +
                               "' is not declared alone in the kernel's "
                               "outermost block");
  Plan.Last = Body->body_back();
  return llvm::Error::success();
}

/// Lanes regroup freely only without barriers, shuffles and shared memory.
static llvm::Error checkIndependentThreads(const FunctionDecl &Kernel,
                                           ASTContext &Ctx) {
  for (const CallExpr *Call : nodesOf<CallExpr>(Kernel.getBody()))
    if (isCooperativeCall(*Call))
      return illegalAt(Call->getBeginLoc(), Ctx,
                       "the kernel's threads cooperate here, which assumes "
                       "how they are grouped");
  for (const DeclStmt *D : nodesOf<DeclStmt>(Kernel.getBody()))
    for (const Decl *Dcl : D->decls())
      if (Dcl->hasAttr<CUDASharedAttr>())
        return illegalAt(Dcl->getLocation(), Ctx,
                         "the kernel uses __shared__ memory, whose use "
                         "assumes how threads are grouped");
  llvm::StringSet<> Names = identifiersOf(Kernel, Ctx);
  for (const char *Name : OwnNames)
    if (Names.contains(Name))
      return notApplicableAt(Kernel.getLocation(), Ctx,
                             "the kernel already uses the name '" +
                                 llvm::Twine(Name) + "'");
  return llvm::Error::success();
}

/// A step of 1 or -1 towards a bound that `<`, `<=`, `>` or `>=` checks,
/// and an IV declared in the header, so its value after the loop is no one's
/// business.
static llvm::Error checkLoop(const CanonicalLoop &L, ASTContext &Ctx) {
  bool Up = L.Step == 1 && (L.Cmp == BO_LT || L.Cmp == BO_LE);
  bool Down = L.Step == -1 && (L.Cmp == BO_GT || L.Cmp == BO_GE);
  if (!Up && !Down)
    return notApplicableAt(L.For->getBeginLoc(), Ctx,
                           "the loop must step by 1 (or -1) towards a bound "
                           "checked with <, <=, > or >=, for its lanes to "
                           "stride it");
  const auto *Init = dyn_cast_or_null<DeclStmt>(L.For->getInit());
  if (!Init || !llvm::is_contained(Init->decls(), L.IV))
    return notApplicableAt(L.For->getBeginLoc(), Ctx,
                           "the loop's counter is declared outside it: its "
                           "value after the loop would differ per lane");
  return llvm::Error::success();
}

llvm::Expected<WarpPerRowPlan>
WarpPerRowLegality::check(const FunctionDecl &Kernel, const Stmt &Loop,
                          ASTContext &Ctx) {
  const auto *For = dyn_cast<ForStmt>(&Loop);
  if (!For)
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "not a for-loop: warp-per-row splits a for-loop's "
                           "iterations across lanes");
  WarpPerRowPlan Plan;
  auto Canon = analyzeLoop(*For, Ctx);
  if (!Canon)
    return Canon.takeError();
  Plan.Loop = *Canon;
  if (llvm::Error E = checkLoop(Plan.Loop, Ctx))
    return E;
  if (llvm::Error E = findRow(Kernel, Plan, Ctx))
    return E;
  if (llvm::Error E = checkIndependentThreads(Kernel, Ctx))
    return E;
  auto Reductions = LoopBody(*For, Ctx).reductions();
  if (!Reductions)
    return Reductions.takeError();
  Plan.Reductions = std::move(*Reductions);
  if (parentOf(DynTypedNode::create(*For), Ctx).get<AttributedStmt>())
    return notApplicableAt(For->getBeginLoc(), Ctx,
                           "the loop has a pragma: split it before adding one");
  if (llvm::Error E =
          Surroundings(Kernel, Plan, Ctx)
              .classify(*For, *cast<CompoundStmt>(Kernel.getBody())))
    return E;
  return Plan;
}

llvm::Error WarpPerRowLegality::keepLaunches(const FunctionDecl &Kernel,
                                             unsigned Lanes, ASTContext &Ctx) {
  if (!isBlockGroup(Lanes))
    return llvm::Error::success();
  return notApplicableAt(Kernel.getLocation(), Ctx,
                         "a group of " + llvm::Twine(Lanes) +
                             " lanes is a whole block, so the launches must "
                             "change to a block per row: only grid=spread "
                             "gives it");
}

llvm::Expected<std::vector<LaunchShape>>
WarpPerRowLegality::spreadLaunches(const FunctionDecl &Kernel, unsigned Lanes,
                                   ASTContext &Ctx) {
  auto Block = kernelBlock(Kernel, Ctx);
  if (!Block)
    return Block.takeError();
  if (isBlockGroup(Lanes)) {
    if ((*Block)[1] != 1 || (*Block)[2] != 1)
      return notApplicableAt(Kernel.getLocation(), Ctx,
                             "the block has threads in y or z: a block of " +
                                 llvm::Twine(Lanes) +
                                 " lanes per row replaces a 1-D block only");
    return dividableLaunches(Kernel, 0, Ctx,
                             {"rescale", "give each row a block of its own"});
  }
  if ((*Block)[0] % Lanes != 0)
    return notApplicableAt(Kernel.getLocation(), Ctx,
                           "the block's " + llvm::Twine((*Block)[0]) +
                               " threads in x are not a multiple of " +
                               llvm::Twine(Lanes) +
                               " lanes: spread the grid only over whole "
                               "groups (grid=keep keeps it)");
  return dividableLaunches(Kernel, 0, Ctx, {"grow", "grow to a group per row"});
}

bool WarpPerRowLegality::readsAcrossThreads(const FunctionDecl &Kernel,
                                            const CanonicalLoop &Loop,
                                            ASTContext &Ctx) {
  const IndexAtom Lane = IndexAtom::of(BuiltinRef{BuiltinRef::ThreadIdx, 0});
  const IndexAtom Counter = IndexAtom::of(*Loop.IV);
  auto IsUnit = [](const std::optional<IndexPolynomial> &C) {
    std::optional<int64_t> K = C ? C->asConstant() : std::nullopt;
    return K && (*K == 1 || *K == -1);
  };
  bool Across = false;
  for (const auto *E : nodesOf<ArraySubscriptExpr>(Loop.For->getBody())) {
    auto Root = bufferRootOf(*E->getBase(), Kernel, Ctx);
    if (!Root || lvalueUseOf(*E, Ctx) != LvalueUse::Read)
      continue;
    // A read the same for every thread (a weight per row) or one whose
    // index is not a polynomial says nothing either way.
    std::optional<IndexPolynomial> Index = elementIndexOf(*E, *Root, Ctx);
    if (!Index)
      continue;
    std::optional<IndexPolynomial> ByLane = Index->coefficient(Lane);
    std::optional<int64_t> LaneStep =
        ByLane ? ByLane->asConstant() : std::nullopt;
    if (LaneStep == 0)
      continue;
    // A thread walking memory of its own along the loop wants every lane.
    if (IsUnit(Index->coefficient(Counter)))
      return false;
    Across |= IsUnit(ByLane);
  }
  return Across;
}
