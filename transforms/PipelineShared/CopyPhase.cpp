//===- CopyPhase.cpp - the part of a tile loop that fills shared tiles ----===//

#include "transforms/PipelineShared/CopyPhase.h"
#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace optiml;
using namespace clang;

/// The variable a chain of subscripts `v[i][j]` starts from, or null.
static const DeclRefExpr *subscriptBase(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    E = A->getBase()->IgnoreParenImpCasts();
  return dyn_cast<DeclRefExpr>(E);
}

static const VarDecl *sharedVarOf(const Expr *E) {
  const DeclRefExpr *Ref = subscriptBase(E);
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return V && V->hasAttr<CUDASharedAttr>() ? V : nullptr;
}

/// `P[index]` with P a pointer parameter: an element of global memory.
static const ArraySubscriptExpr *asGlobalElement(const Expr *E) {
  const auto *A = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!A)
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts());
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  return P && P->getType()->isPointerType() ? A : nullptr;
}

namespace {

/// `L = R`, written with the built-in `=` or with a trivial copy
/// assignment (float2, float4 and other structs).
struct Assignment {
  const Expr *LHS = nullptr, *RHS = nullptr;
};

std::optional<Assignment> asAssignment(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return std::nullopt;
  if (const auto *Full = dyn_cast<FullExpr>(E))
    E = Full->getSubExpr();
  E = E->IgnoreParens();
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->getOpcode() == BO_Assign)
    return Assignment{B->getLHS(), B->getRHS()};
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
  const auto *M =
      Op ? dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee()) : nullptr;
  if (Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 && M &&
      M->isTrivial())
    return Assignment{Op->getArg(0), Op->getArg(1)};
  return std::nullopt;
}

} // namespace

/// The only statement of \p S, through braces: `{ x = y; }` is `x = y;`.
static const Stmt *single(const Stmt *S) {
  while (const auto *C = dyn_cast_or_null<CompoundStmt>(S))
    S = C->size() == 1 ? C->body_front() : nullptr;
  return S;
}

/// Whether \p E is a constant whose bytes are all zero (0, 0.0f,
/// float(0); not -0.0f), which cp.async's zero fill writes.
static bool isZeroBytes(const Expr &E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E.isValueDependent() || !E.EvaluateAsRValue(R, Ctx))
    return false;
  if (R.Val.isInt())
    return R.Val.getInt().isZero();
  if (R.Val.isFloat())
    return R.Val.getFloat().isPosZero();
  return false;
}

/// `make_float4(...)` and the other vector makers of CUDA's headers, which
/// only build a value.
static bool isVectorMaker(const CallExpr &Call, const ASTContext &Ctx) {
  const FunctionDecl *F = Call.getDirectCallee();
  return F && F->getIdentifier() && F->getName().starts_with("make_") &&
         Ctx.getSourceManager().isInSystemHeader(F->getLocation());
}

namespace optiml {

/// Walks the statements of the phase once, keeping the conditions and loop
/// headers that surround the statement it is in.
class CopyPhaseWalker {
public:
  CopyPhaseWalker(CopyPhase &Out, const CanonicalLoop &L,
                  const FunctionDecl &Kernel, ASTContext &Ctx)
      : Out(Out), L(L), Kernel(Kernel), Ctx(Ctx) {}

  llvm::Error run(llvm::ArrayRef<const Stmt *> Stmts);

private:
  struct Definition {
    const VarDecl *Var;
    const Stmt *Value;
    std::vector<const Stmt *> Controls;
  };
  void collect(const Stmt *S);
  void followTile();
  bool readsTile(const Stmt *S) const;
  /// Whether the condition, or the for-loop's header, reads the tile.
  bool controlReadsTile(const Stmt *Control) const;

  llvm::Error visit(const Stmt *S);
  llvm::Error visitFor(const ForStmt &For);
  llvm::Error visitIf(const IfStmt &If);
  llvm::Error visitDecl(const DeclStmt &D);
  llvm::Error visitCopy(const Assignment &Assign, const Stmt &Statement);
  llvm::Error copy(ElementCopy C);
  llvm::Error checkTarget(const ElementCopy &C);
  llvm::Error checkSource(const ElementCopy &C);
  llvm::Error checkExpr(const Stmt *S);
  llvm::Error checkRef(const DeclRefExpr &Ref);
  llvm::Error checkCall(const CallExpr &Call);

  CopyPhase &Out;
  const CanonicalLoop &L;
  const FunctionDecl &Kernel;
  ASTContext &Ctx;
  std::optional<BufferAccess> Access;
  /// The conditions and loop headers around the statement being visited.
  std::vector<const Stmt *> Controls;
  /// Where the phase's locals get their values, under which controls.
  std::vector<Definition> Definitions;
  /// The loop variable and the locals whose value depends on it.
  llvm::SmallPtrSet<const VarDecl *, 8> TileVars;
};

} // namespace optiml

/// Records the phase's locals and every value they are given.
void CopyPhaseWalker::collect(const Stmt *S) {
  if (!S)
    return;
  if (const auto *D = dyn_cast<DeclStmt>(S))
    for (const Decl *Sub : D->decls())
      if (const auto *V = dyn_cast<VarDecl>(Sub)) {
        Out.Locals.insert(V);
        if (const Expr *Init = V->getInit())
          Definitions.push_back({V, Init, Controls});
      }
  const Expr *LHS = nullptr, *RHS = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    LHS = B->getLHS(), RHS = B->getRHS();
  else if (auto A = asAssignment(S))
    LHS = A->LHS, RHS = A->RHS;
  else if (const auto *U = dyn_cast<UnaryOperator>(S);
           U && U->isIncrementDecrementOp())
    LHS = U->getSubExpr(), RHS = U; // Under a condition that may read it.
  if (const DeclRefExpr *Ref = LHS ? subscriptBase(LHS) : nullptr)
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
      Definitions.push_back({V, RHS, Controls});
  bool Control = isa<IfStmt, ForStmt>(S);
  if (const auto *If = dyn_cast<IfStmt>(S))
    Controls.push_back(If->getCond());
  if (const auto *For = dyn_cast<ForStmt>(S))
    Controls.push_back(For);
  for (const Stmt *Child : S->children())
    collect(Child);
  if (Control)
    Controls.pop_back();
}

/// A local takes the tile's dependence from the values it is given and
/// from the conditions they are given under.
void CopyPhaseWalker::followTile() {
  TileVars.insert(L.IV);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Definition &D : Definitions) {
      if (TileVars.contains(D.Var) || !Out.Locals.contains(D.Var))
        continue;
      bool Depends =
          readsTile(D.Value) || llvm::any_of(D.Controls, [&](const Stmt *C) {
            return controlReadsTile(C);
          });
      if (Depends)
        Changed = TileVars.insert(D.Var).second || Changed;
    }
  }
}

bool CopyPhaseWalker::readsTile(const Stmt *S) const {
  bool Found = false;
  forEachNode(S, [&](const Stmt *N) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(N))
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        Found |= TileVars.contains(V);
  });
  return Found;
}

bool CopyPhaseWalker::controlReadsTile(const Stmt *Control) const {
  if (const auto *For = dyn_cast<ForStmt>(Control))
    return readsTile(For->getInit()) || readsTile(For->getCond()) ||
           readsTile(For->getInc());
  return readsTile(Control);
}

llvm::Error CopyPhaseWalker::run(llvm::ArrayRef<const Stmt *> Stmts) {
  Access.emplace(Kernel, Ctx);
  for (const Stmt *S : Stmts)
    collect(S);
  followTile();
  for (const Stmt *S : Stmts)
    if (llvm::Error E = visit(S))
      return E;
  if (Out.Copies.empty())
    return notApplicableAt(Stmts.front()->getBeginLoc(), Ctx,
                           "nothing before the loop's first barrier copies "
                           "an element of global memory to a __shared__ "
                           "array");
  return llvm::Error::success();
}

llvm::Error CopyPhaseWalker::visit(const Stmt *S) {
  if (!S || isa<NullStmt>(S))
    return llvm::Error::success();
  if (const auto *C = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : C->body())
      if (llvm::Error E = visit(Child))
        return E;
    return llvm::Error::success();
  }
  if (const auto *A = dyn_cast<AttributedStmt>(S))
    return visit(A->getSubStmt());
  if (const auto *D = dyn_cast<DeclStmt>(S))
    return visitDecl(*D);
  if (const auto *For = dyn_cast<ForStmt>(S))
    return visitFor(*For);
  if (const auto *If = dyn_cast<IfStmt>(S))
    return visitIf(*If);
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (auto A = asAssignment(E); A && sharedVarOf(A->LHS))
      return visitCopy(*A, *S);
    return checkExpr(E);
  }
  std::string What = isa<WhileStmt, DoStmt, CXXForRangeStmt>(S)
                         ? loopKindOf(*S)
                         : "a '" + std::string(S->getStmtClassName()) + "'";
  return notApplicableAt(S->getBeginLoc(), Ctx,
                         "the copy phase holds " + What +
                             "; only declarations, for-loops, ifs and "
                             "assignments may make up a copy");
}

llvm::Error CopyPhaseWalker::visitDecl(const DeclStmt &D) {
  for (const Decl *Sub : D.decls()) {
    const auto *V = dyn_cast<VarDecl>(Sub);
    if (!V)
      continue;
    if (V->hasAttr<CUDASharedAttr>() || V->isStaticLocal())
      return notApplicableAt(V->getLocation(), Ctx,
                             "'" + V->getName() +
                                 "' is declared in the loop with a storage "
                                 "the block or every iteration shares");
    if (const Expr *Init = V->getInit())
      if (llvm::Error E = checkExpr(Init))
        return E;
  }
  return llvm::Error::success();
}

llvm::Error CopyPhaseWalker::visitFor(const ForStmt &For) {
  if (llvm::Error E = visit(For.getInit()))
    return E;
  for (const Stmt *Part :
       {(const Stmt *)For.getCond(), (const Stmt *)For.getInc()})
    if (llvm::Error E = checkExpr(Part))
      return E;
  Controls.push_back(&For);
  llvm::Error E = visit(For.getBody());
  Controls.pop_back();
  return E;
}

/// `if (C) T = P[i]; else T = F;` is one guarded copy; any other `if` is a
/// condition around the copies it holds.
llvm::Error CopyPhaseWalker::visitIf(const IfStmt &If) {
  auto Then = asAssignment(single(If.getThen()));
  auto Else = asAssignment(single(If.getElse()));
  if (Then && Else && !If.hasInitStorage() && !If.hasVarStorage() &&
      sharedVarOf(Then->LHS) &&
      textOf(Then->LHS->getSourceRange(), Ctx) ==
          textOf(Else->LHS->getSourceRange(), Ctx)) {
    const ArraySubscriptExpr *FromThen = asGlobalElement(Then->RHS);
    const ArraySubscriptExpr *FromElse = asGlobalElement(Else->RHS);
    if (bool(FromThen) != bool(FromElse)) {
      ElementCopy C;
      C.Statement = &If;
      C.Target = FromThen ? Then->LHS : Else->LHS;
      C.Source = FromThen ? FromThen : FromElse;
      C.Guard = If.getCond();
      C.Negated = !FromThen;
      C.Fill = FromThen ? Else->RHS : Then->RHS;
      return copy(C);
    }
  }
  if (If.getInit())
    if (llvm::Error E = visit(If.getInit()))
      return E;
  if (llvm::Error E = checkExpr(If.getCond()))
    return E;
  Controls.push_back(If.getCond());
  llvm::Error E = visit(If.getThen());
  if (!E)
    E = visit(If.getElse());
  Controls.pop_back();
  return E;
}

/// `T = P[i];` or `T = C ? P[i] : F;` (either arm).
llvm::Error CopyPhaseWalker::visitCopy(const Assignment &Assign,
                                       const Stmt &Statement) {
  ElementCopy C;
  C.Statement = &Statement;
  C.Target = Assign.LHS;
  const Expr *Value = Assign.RHS;
  if ((C.Source = asGlobalElement(Value)))
    return copy(C);
  if (const auto *Cond =
          dyn_cast<ConditionalOperator>(Value->IgnoreParenImpCasts())) {
    const ArraySubscriptExpr *True = asGlobalElement(Cond->getTrueExpr());
    const ArraySubscriptExpr *False = asGlobalElement(Cond->getFalseExpr());
    if (bool(True) != bool(False)) {
      C.Source = True ? True : False;
      C.Guard = Cond->getCond();
      C.Negated = !True;
      C.Fill = True ? Cond->getFalseExpr() : Cond->getTrueExpr();
      return copy(C);
    }
  }
  return notApplicableAt(Value->getBeginLoc(), Ctx,
                         "the value stored to '" +
                             sharedVarOf(C.Target)->getName() +
                             "' is not an element of a buffer parameter "
                             "copied unchanged (optionally under a "
                             "condition); cp.async only copies bytes");
}

llvm::Error CopyPhaseWalker::copy(ElementCopy C) {
  C.Buffer = sharedVarOf(C.Target);
  C.SourceBuffer =
      cast<ParmVarDecl>(subscriptBase(C.Source->getBase())->getDecl());
  C.Element = C.Target->getType();
  if (llvm::Error E = checkTarget(C))
    return E;
  if (llvm::Error E = checkSource(C))
    return E;
  for (const Expr *Part : {C.Guard, C.Fill})
    if (Part)
      if (llvm::Error E = checkExpr(Part))
        return E;
  C.ZeroFill = C.Fill && isZeroBytes(*C.Fill, Ctx);
  C.Bytes = Ctx.getTypeSizeInChars(C.Element).getQuantity();
  if (!llvm::is_contained(Out.Buffers, C.Buffer))
    Out.Buffers.push_back(C.Buffer);
  Out.Copies.push_back(C);
  return llvm::Error::success();
}

/// A whole element, at a place that is the same for every tile, so that
/// each buffer holds every element the compute reads.
llvm::Error CopyPhaseWalker::checkTarget(const ElementCopy &C) {
  const Expr *E = C.Target->IgnoreParenImpCasts();
  while (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    if (llvm::Error Err = checkExpr(A->getIdx()))
      return Err;
    if (readsTile(A->getIdx()))
      return illegalAt(A->getIdx()->getBeginLoc(), Ctx,
                       "which element of '" + C.Buffer->getName() +
                           "' is written depends on the tile; with several "
                           "buffers, an element one tile leaves unwritten "
                           "would hold another tile's value");
    E = A->getBase()->IgnoreParenImpCasts();
  }
  for (const Stmt *Control : Controls)
    if (controlReadsTile(Control))
      return illegalAt(Control->getBeginLoc(), Ctx,
                       "whether the copy to '" + C.Buffer->getName() +
                           "' runs depends on the tile; with several "
                           "buffers, an element one tile leaves unwritten "
                           "would hold another tile's value");
  return llvm::Error::success();
}

/// An element of a read-only buffer, of a type cp.async can copy whole.
llvm::Error CopyPhaseWalker::checkSource(const ElementCopy &C) {
  const ParmVarDecl &P = *C.SourceBuffer;
  QualType From = C.Source->getType().getCanonicalType().getUnqualifiedType();
  QualType To = C.Element.getCanonicalType().getUnqualifiedType();
  if (From != To)
    return notApplicableAt(
        C.Source->getBeginLoc(), Ctx,
        "the copy converts '" + C.Source->getType().getAsString() + "' to '" +
            C.Element.getAsString() + "'; cp.async copies bytes unchanged");
  uint64_t Bytes = Ctx.getTypeSizeInChars(To).getQuantity();
  // A typedef may lower the alignment; the canonical type forgets it.
  uint64_t Align =
      std::min(Ctx.getTypeAlignInChars(C.Element).getQuantity(),
               Ctx.getTypeAlignInChars(C.Source->getType()).getQuantity());
  if (Bytes != 4 && Bytes != 8 && Bytes != 16)
    return notApplicableAt(C.Target->getBeginLoc(), Ctx,
                           "the elements of '" + C.Buffer->getName() +
                               "' take " + llvm::Twine(Bytes) +
                               " bytes; cp.async copies 4, 8 or 16");
  if (Align < Bytes || !To.isTriviallyCopyableType(Ctx))
    return notApplicableAt(C.Target->getBeginLoc(), Ctx,
                           "the elements of '" + C.Buffer->getName() +
                               "' are aligned to " + llvm::Twine(Align) +
                               " bytes, less than their size; cp.async "
                               "needs addresses aligned to the size copied");
  if (llvm::Error E = checkRef(*subscriptBase(C.Source->getBase())))
    return E;
  if (const Expr *W = Access->writeOf(P))
    return illegalAt(W->getBeginLoc(), Ctx,
                     "the kernel may write through '" + P.getName() +
                         "' here; the next tile's copy, issued before this "
                         "tile's work, could read it too early");
  return checkExpr(C.Source->getIdx());
}

/// What an expression of the phase may do besides copying: read the loop
/// variable, the phase's locals and values the loop never changes, assign
/// the phase's locals, call pure math functions.
llvm::Error CopyPhaseWalker::checkExpr(const Stmt *S) {
  if (!S || isBuiltinRefNode(S))
    return llvm::Error::success();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    return checkRef(*Ref);
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (llvm::Error E = checkCall(*Call))
      return E;
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(S)) {
    const DeclRefExpr *Base = subscriptBase(A);
    const auto *V = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    if (V && V->hasAttr<CUDASharedAttr>())
      return checkRef(*Base);
    if (!V || !Out.Locals.contains(V))
      return notApplicableAt(A->getBeginLoc(), Ctx,
                             "the copy phase reads '" +
                                 textOf(A->getSourceRange(), Ctx) +
                                 "' besides the elements it copies");
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->getOpcode() == UO_Deref)
    return notApplicableAt(U->getBeginLoc(), Ctx,
                           "the copy phase reads memory through a pointer "
                           "besides the elements it copies");
  if (const auto *M = dyn_cast<MemberExpr>(S); M && M->isArrow())
    return notApplicableAt(M->getBeginLoc(), Ctx,
                           "the copy phase reads memory through a pointer "
                           "besides the elements it copies");
  if (isa<LambdaExpr>(S))
    return notApplicableAt(S->getBeginLoc(), Ctx,
                           "the copy phase defines a lambda");
  for (const Stmt *Child : S->children())
    if (llvm::Error E = checkExpr(Child))
      return E;
  return llvm::Error::success();
}

llvm::Error CopyPhaseWalker::checkRef(const DeclRefExpr &Ref) {
  const auto *V = dyn_cast<VarDecl>(Ref.getDecl());
  if (!V || V == L.IV || Out.Locals.contains(V))
    return llvm::Error::success();
  if (V->hasAttr<CUDASharedAttr>())
    return notApplicableAt(Ref.getBeginLoc(), Ctx,
                           "the copy phase uses __shared__ '" + V->getName() +
                               "' other than to store a copied element");
  if (!isPureRead(Ref, Ctx))
    return illegalAt(Ref.getBeginLoc(), Ctx,
                     "the copy phase changes '" + V->getName() +
                         "', declared outside it; the copy of a later tile, "
                         "issued early, would change it at another time");
  if (auto Why = whyLoopVariant(Ref, *L.For, Ctx))
    return notApplicableAt(Ref.getBeginLoc(), Ctx,
                           "the copy reads '" + V->getName() +
                               "', which the loop changes: the next tile's "
                               "copy, issued an iteration early, would read "
                               "this iteration's value");
  return llvm::Error::success();
}

llvm::Error CopyPhaseWalker::checkCall(const CallExpr &Call) {
  const FunctionDecl *F = Call.getDirectCallee();
  if (isPureMathCall(Call, Ctx) || isVectorMaker(Call, Ctx))
    return llvm::Error::success();
  std::string Name =
      F && F->getIdentifier() ? "'" + F->getName().str() + "'" : "a function";
  return notApplicableAt(Call.getBeginLoc(), Ctx,
                         "the copy phase calls " + Name +
                             ", which may do more than compute a copy's "
                             "place");
}

llvm::Expected<CopyPhase> CopyPhase::analyze(llvm::ArrayRef<const Stmt *> Stmts,
                                             const CanonicalLoop &L,
                                             const FunctionDecl &Kernel,
                                             ASTContext &Ctx) {
  CopyPhase Out;
  if (llvm::Error E = CopyPhaseWalker(Out, L, Kernel, Ctx).run(Stmts))
    return E;
  return Out;
}
