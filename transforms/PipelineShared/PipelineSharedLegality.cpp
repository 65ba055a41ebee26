//===- PipelineSharedLegality.cpp - may a tile loop be pipelined? ---------===//

#include "transforms/PipelineShared/PipelineSharedLegality.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/DistinctBuffers.h"
#include "optiml/Analysis/Legality/GpuTarget.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/SharedMemory.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace optiml;
using namespace clang;

namespace {

/// The first architecture with cp.async.
constexpr unsigned AsyncCopyArch = 80;

/// The first statement of the loop body \p S that leaves the iteration
/// other than at its end: a break or continue of the loop itself, a return,
/// a goto or a label.
const Stmt *firstJump(const Stmt *S, bool InLoop, bool InSwitch) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, LabelStmt>(S) ||
      (isa<ContinueStmt>(S) && !InLoop) ||
      (isa<BreakStmt>(S) && !InLoop && !InSwitch))
    return S;
  bool Loop = InLoop || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  bool Switch = InSwitch || isa<SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (const Stmt *J = firstJump(Child, Loop, Switch))
      return J;
  return nullptr;
}

/// Whether evaluating \p E again changes anything: an assignment, an
/// increment or a call (other than to pure math; reading the thread
/// geometry is no call).
bool hasEffects(const Expr &E, ASTContext &Ctx) {
  bool Effects = false;
  forEachNode(&E, [&](const Stmt *N) {
    if (const auto *B = dyn_cast<BinaryOperator>(N))
      Effects |= B->isAssignmentOp();
    if (const auto *U = dyn_cast<UnaryOperator>(N))
      Effects |= U->isIncrementDecrementOp();
    if (const auto *Call = dyn_cast<CallExpr>(N))
      Effects |= !isPureMathCall(*Call, Ctx);
  });
  return Effects;
}

/// Whether \p S may write memory other than the thread's own locals and
/// `__shared__` arrays: a store through a pointer, or a call that is not
/// pure math or a barrier.
bool writesGlobalMemory(const Stmt *S, ASTContext &Ctx) {
  bool Writes = false;
  forEachNode(S, [&](const Stmt *N) {
    const Expr *Target = nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isAssignmentOp())
      Target = B->getLHS();
    if (const auto *U = dyn_cast<UnaryOperator>(N);
        U && U->isIncrementDecrementOp())
      Target = U->getSubExpr();
    if (const auto *Call = dyn_cast<CallExpr>(N))
      Writes |= !isPureMathCall(*Call, Ctx) && !isCooperativeCall(*Call);
    if (!Target)
      return;
    Target = Target->IgnoreParenImpCasts();
    // Elements of local and __shared__ arrays; a pointer's are global.
    while (const auto *A = dyn_cast<ArraySubscriptExpr>(Target)) {
      const Expr *Base = A->getBase()->IgnoreParenImpCasts();
      if (!Base->getType()->isArrayType())
        break;
      Target = Base;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(Target);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    Writes |= !V || (!V->hasLocalStorage() && !V->hasAttr<CUDASharedAttr>());
  });
  return Writes;
}

/// Whether the lvalue \p E is only read: its value taken, or a struct
/// copied from it by a trivial constructor or assignment (`float4 v =
/// t[i];`).
bool isCopiedFrom(const Expr &E, ASTContext &Ctx) {
  if (lvalueUseOf(E, Ctx) == LvalueUse::Read)
    return true;
  const Expr *Child = &E;
  DynTypedNode Parent = parentOf(DynTypedNode::create(E), Ctx);
  while (Parent.get<ParenExpr>() || Parent.get<ImplicitCastExpr>()) {
    Child = Parent.get<Expr>();
    Parent = parentOf(Parent, Ctx);
  }
  if (const auto *C = Parent.get<CXXConstructExpr>())
    return C->getConstructor()->isTrivial() &&
           C->getConstructor()->isCopyOrMoveConstructor();
  if (const auto *Op = Parent.get<CXXOperatorCallExpr>()) {
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    return Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
           Op->getArg(1) == Child && M && M->isTrivial();
  }
  return false;
}

/// The analysis of one site; fills a plan step by step.
class Analysis {
public:
  Analysis(const Site &S, ASTContext &Ctx) : S(S), Ctx(Ctx) {}

  llvm::Expected<PipelineSharedPlan> run(unsigned Stages);

private:
  llvm::Error checkTarget(const ForStmt &For);
  llvm::Error checkLoop(const ForStmt &For);
  llvm::Error splitBody();
  llvm::Error checkBuffers();
  llvm::Error checkWork();
  llvm::Error checkWorkRef(const DeclRefExpr &Ref);
  llvm::Error checkSize();
  llvm::Error checkCounterRange();
  bool sharedUsedAfter() const;
  bool isInOwnBlock(const ForStmt &For) const;

  const Site &S;
  ASTContext &Ctx;
  PipelineSharedPlan Plan;
  /// The work: the body's statements between the barriers.
  std::vector<const Stmt *> Work;
};

} // namespace

llvm::Error Analysis::checkTarget(const ForStmt &For) {
  std::optional<unsigned> Arch = targetSmVersion(Ctx);
  if (!Arch || *Arch < AsyncCopyArch)
    return notApplicableAt(For.getBeginLoc(), Ctx,
                           "cp.async needs sm_80 or newer; the kernel is "
                           "compiled for " +
                               targetArchName(Ctx));
  return llvm::Error::success();
}

llvm::Error Analysis::checkLoop(const ForStmt &For) {
  auto L = analyzeLoop(For, Ctx);
  if (!L)
    return L.takeError();
  Plan.Loop = *L;
  if (L->Step <= 0 || (L->Cmp != BO_LT && L->Cmp != BO_LE))
    return notApplicableAt(For.getCond()->getBeginLoc(), Ctx,
                           "the loop must count up to a bound (i < n or "
                           "i <= n); the next tile is the next value");
  if (!isa<DeclStmt>(For.getInit()))
    return notApplicableAt(For.getInit()->getBeginLoc(), Ctx,
                           "the loop variable '" + L->IV->getName() +
                               "' is declared outside the loop; the copies "
                               "of later tiles redeclare it");
  // The prologue evaluates the start and the test again, before the loop.
  for (const Expr *Part : {L->Lower, For.getCond(), For.getInc()}) {
    if (textOf(Part->getSourceRange(), Ctx).empty())
      return notApplicableAt(Part->getBeginLoc(), Ctx,
                             "part of the loop's header comes from a macro "
                             "and cannot be copied");
    if (Part != For.getInc() && hasEffects(*Part, Ctx))
      return notApplicableAt(Part->getBeginLoc(), Ctx,
                             "the loop's header has side effects, which "
                             "evaluating it for the first tiles would "
                             "repeat");
  }
  if (const auto *A =
          parentOf(DynTypedNode::create(For), Ctx).get<AttributedStmt>())
    return notApplicableAt(A->getAttrs().front()->getLocation(), Ctx,
                           "the loop has a pragma or attribute, which the "
                           "prologue before it would separate from it");
  for (const CallExpr *Call : nodesOf<CallExpr>(For.getBody()))
    if (const FunctionDecl *F = Call->getDirectCallee();
        F && F->getIdentifier() && F->getName().starts_with("__pipeline_"))
      return notApplicableAt(Call->getBeginLoc(), Ctx,
                             "the loop already copies with cp.async ('" +
                                 F->getName() + "')");
  if (const Stmt *J = firstJump(For.getBody(), false, false))
    return illegalAt(J->getBeginLoc(), Ctx,
                     "a jump out of the iteration would skip the barrier "
                     "and the copy of a later tile");
  return llvm::Error::success();
}

/// { copy...; __syncthreads(); work...; __syncthreads(); }
llvm::Error Analysis::splitBody() {
  const ForStmt &For = *Plan.Loop.For;
  const auto *Body = dyn_cast<CompoundStmt>(For.getBody());
  std::vector<const Stmt *> Stmts =
      Body ? std::vector<const Stmt *>(Body->body_begin(), Body->body_end())
           : std::vector<const Stmt *>();
  auto First = llvm::find_if(Stmts, isBlockBarrier);
  if (First == Stmts.end())
    return notApplicableAt(For.getBeginLoc(), Ctx,
                           "the loop's body has no __syncthreads() of its "
                           "own after copying a tile to shared memory");
  if (First == Stmts.begin())
    return notApplicableAt((*First)->getBeginLoc(), Ctx,
                           "nothing comes before the loop's first barrier: "
                           "there is no copy to pipeline");
  if (Stmts.back() == *First || !isBlockBarrier(Stmts.back()))
    return notApplicableAt(Stmts.back()->getBeginLoc(), Ctx,
                           "the loop's body does not end with a "
                           "__syncthreads() after its work; the copy of the "
                           "next tile must not overwrite a tile in use");
  Plan.CopyStmts.assign(Stmts.begin(), First);
  Plan.FirstBarrier = *First;
  Plan.LastBarrier = Stmts.back();
  Work.assign(First + 1, Stmts.end() - 1);
  return llvm::Error::success();
}

/// Statically sized `__shared__` arrays of the kernel, declared before the
/// loop and used only inside it: the loop alone decides what they hold.
llvm::Error Analysis::checkBuffers() {
  const ForStmt &For = *Plan.Loop.For;
  for (const VarDecl *V : Plan.Copy.buffers()) {
    std::string Name = "'" + V->getName().str() + "'";
    if (!V->isLocalVarDecl() || !Ctx.getAsConstantArrayType(V->getType()) ||
        V->getType()->isDependentType())
      return notApplicableAt(V->getLocation(), Ctx,
                             Name + " is not a statically sized __shared__ "
                                    "array declared in the kernel");
    if (V->getLocation().isMacroID())
      return notApplicableAt(V->getLocation(), Ctx,
                             Name + " is declared inside a macro");
    for (const DeclRefExpr *Use : usesOf(*V, *Plan.Kernel->getBody(), Ctx))
      if (!For.getSourceRange().fullyContains(Use->getSourceRange()))
        return illegalAt(Use->getBeginLoc(), Ctx,
                         Name + " is used outside the loop, which would "
                                "see only one of its buffers");
  }
  return llvm::Error::success();
}

/// The work reads the arrays' elements and nothing the copy phase
/// declares (the copies move into blocks of their own).
llvm::Error Analysis::checkWorkRef(const DeclRefExpr &Ref) {
  const auto *V = dyn_cast<VarDecl>(Ref.getDecl());
  if (!V)
    return llvm::Error::success();
  if (Plan.Copy.declares(*V))
    return notApplicableAt(Ref.getBeginLoc(), Ctx,
                           "the work reads '" + V->getName() +
                               "', which the copy phase declares; the "
                               "copies of later tiles move into blocks of "
                               "their own");
  if (!llvm::is_contained(Plan.Copy.buffers(), V))
    return llvm::Error::success();
  // Up through the subscripts (and the decays to pointers) to the element.
  const Expr *Element = &Ref;
  while (true) {
    DynTypedNode Parent = parentOf(DynTypedNode::create(*Element), Ctx);
    while (Parent.get<ParenExpr>() || Parent.get<ImplicitCastExpr>())
      Parent = parentOf(Parent, Ctx);
    // A field of an element (`t[i].x`) is part of it.
    const auto *M = Parent.get<MemberExpr>();
    if (M && !M->isArrow()) {
      Element = M;
      continue;
    }
    const auto *A = Parent.get<ArraySubscriptExpr>();
    if (!A || A->getBase()->IgnoreParenImpCasts() != Element)
      break;
    Element = A;
  }
  if (Element->getType()->isArrayType() || !isCopiedFrom(*Element, Ctx))
    return illegalAt(Element->getBeginLoc(), Ctx,
                     "the work uses '" + V->getName() +
                         "' other than by reading an element; only the "
                         "copy phase may write the tiles");
  Plan.WorkRefs.push_back(&Ref);
  return llvm::Error::success();
}

llvm::Error Analysis::checkWork() {
  bool Writes = false;
  for (const Stmt *W : Work) {
    for (const DeclRefExpr *Ref : nodesOf<DeclRefExpr>(W))
      if (llvm::Error E = checkWorkRef(*Ref))
        return E;
    Writes |= writesGlobalMemory(W, Ctx);
  }
  // The copy of a later tile now reads global memory before this tile's
  // stores; they must not reach the buffers it copies from.
  if (Writes)
    return checkDistinctBuffers(*Plan.Kernel, Ctx);
  return llvm::Error::success();
}

llvm::Error Analysis::checkSize() {
  uint64_t Extra = 0;
  for (const VarDecl *V : Plan.Copy.buffers())
    Extra +=
        (Plan.Stages - 1) * Ctx.getTypeSizeInChars(V->getType()).getQuantity();
  uint64_t Bytes = staticSharedBytes(*Plan.Kernel, Ctx) + Extra;
  if (Bytes > StaticSharedLimit)
    return illegalAt(Plan.Loop.For->getBeginLoc(), Ctx,
                     llvm::Twine(Plan.Stages) +
                         " buffers of each tile bring '" +
                         Plan.Kernel->getName() + "' to " + llvm::Twine(Bytes) +
                         " bytes of static shared memory, over the " +
                         llvm::Twine(StaticSharedLimit) + " allowed");
  return llvm::Error::success();
}

/// The copy of the tile N-1 steps ahead tests `i + (N-1)*s`, which must not
/// overflow near a constant bound.
llvm::Error Analysis::checkCounterRange() {
  const CanonicalLoop &L = Plan.Loop;
  auto Last = constantBoundValue(L, Ctx);
  if (!Last)
    return Last.takeError();
  if (*Last && **Last + __int128(Plan.Stages - 1) * L.Step >
                   maxValueOf(L.IV->getType(), Ctx))
    return illegalAt(L.Bound->getBeginLoc(), Ctx,
                     "the test of the tile " + llvm::Twine(Plan.Stages - 1) +
                         " steps ahead would overflow '" +
                         L.IV->getType().getAsString() + "' near the bound");
  return llvm::Error::success();
}

/// Whether shared memory may be touched after the loop's last iteration
/// before every thread has finished it: by code after the loop, or by the
/// loop's next run when it sits in another loop.
bool Analysis::sharedUsedAfter() const {
  const ForStmt &For = *Plan.Loop.For;
  for (const Stmt *Outer : enclosingStmts(For, Ctx))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Outer))
      return true;
  const SourceManager &SM = Ctx.getSourceManager();
  bool Used = false;
  forEachNode(Plan.Kernel->getBody(), [&](const Stmt *N) {
    if (!SM.isBeforeInTranslationUnit(For.getEndLoc(), N->getBeginLoc()))
      return;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(N))
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        Used |= V->hasAttr<CUDASharedAttr>();
    if (const auto *Call = dyn_cast<CallExpr>(N))
      Used |= !isPureMathCall(*Call, Ctx) && !isCooperativeCall(*Call);
  });
  return Used;
}

/// Whether the prologue can go on lines of its own before \p For: it is a
/// statement of a `{ }` block, and no jump (a case label, a goto) could
/// cross the stage counter's declaration.
bool Analysis::isInOwnBlock(const ForStmt &For) const {
  DynTypedNode Node = parentOf(DynTypedNode::create(For), Ctx);
  if (!Node.get<CompoundStmt>())
    return false;
  for (const Stmt *Outer : enclosingStmts(For, Ctx))
    if (isa<SwitchStmt>(Outer))
      return false;
  return nodesOf<LabelStmt>(Plan.Kernel->getBody()).empty();
}

llvm::Expected<PipelineSharedPlan> Analysis::run(unsigned Stages) {
  Plan.Kernel = S.Kernel;
  Plan.Stages = Stages;
  auto For = rewritableFor(*S.Loop, S.Name,
                           "pipeline-shared pipelines a counted for-loop",
                           "its copies cannot be rewritten", Ctx);
  if (!For)
    return For.takeError();
  if (llvm::Error E = checkTarget(**For))
    return E;
  if (llvm::Error E = checkLoop(**For))
    return E;
  if (llvm::Error E = splitBody())
    return E;
  auto Copy = CopyPhase::analyze(Plan.CopyStmts, Plan.Loop, *Plan.Kernel, Ctx);
  if (!Copy)
    return Copy.takeError();
  Plan.Copy = std::move(*Copy);
  if (llvm::Error E = checkBuffers())
    return E;
  if (llvm::Error E = checkWork())
    return E;
  if (llvm::Error E = checkSize())
    return E;
  if (llvm::Error E = checkCounterRange())
    return E;
  Plan.BarrierAfter = sharedUsedAfter();
  Plan.InBlock = isInOwnBlock(**For);
  return std::move(Plan);
}

llvm::Expected<PipelineSharedPlan>
PipelineSharedLegality::check(const Site &S, const ParamValues &P,
                              ASTContext &Ctx) {
  unsigned Stages = P.has("stages") ? unsigned(P.getInt("stages")) : 2;
  return Analysis(S, Ctx).run(Stages);
}
