//===- VectorizeLegality.cpp - may a thread move W elements at once? -----===//

#include "transforms/Vectorize/VectorizeLegality.h"
#include "optiml/Analysis/Legality/BoundsGuard.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/LaunchShape.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/ThreadGeometry.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

namespace {

const VarDecl *refVar(const Stmt *S) {
  const auto *R = dyn_cast_or_null<DeclRefExpr>(S);
  return R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
}

bool refersTo(const Stmt *S, const VarDecl *V) {
  bool Found = false;
  auto F = [&](const Stmt *N) { Found |= refVar(N) == V; };
  forEachNode(S, F);
  return Found;
}

bool isReturn(const Stmt *S) {
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(S))
    return C->size() == 1 && isReturn(C->body_front());
  return isa_and_nonnull<ReturnStmt>(S);
}

/// `i OP n` (or `n OP' i`) with OP `<` when \p Exits is false, `>=` when
/// true: the bound n, or null.
const Expr *boundOf(const Expr *Cond, const VarDecl *I, bool Exits) {
  const auto *Cmp = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!Cmp)
    return nullptr;
  BinaryOperatorKind Fwd = Exits ? BO_GE : BO_LT;
  BinaryOperatorKind Rev = Exits ? BO_LE : BO_GT;
  if (Cmp->getOpcode() == Fwd &&
      refVar(Cmp->getLHS()->IgnoreParenImpCasts()) == I)
    return Cmp->getRHS();
  if (Cmp->getOpcode() == Rev &&
      refVar(Cmp->getRHS()->IgnoreParenImpCasts()) == I)
    return Cmp->getLHS();
  return nullptr;
}

/// A call the lanes may make in any order relative to the vector loads and
/// stores: it cannot touch memory.
bool isHarmlessCall(const CallExpr &C, ASTContext &Ctx) {
  const FunctionDecl *F = C.getDirectCallee();
  if (!F || !F->getIdentifier() || F->isVariadic() ||
      F->getName().starts_with("atomic") || isa<CXXMethodDecl>(F))
    return false;
  if (llvm::any_of(F->parameters(), [](const ParmVarDecl *P) {
        return P->getType()->isPointerType() || P->getType()->isReferenceType();
      }))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  if (F->getBuiltinID() ||
      SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
    return true;
  return F->hasBody() && !BoundsGuard::touchesMemory(F->getBody());
}

/// Whether two distinct parameters may hold the same buffer: unless one of
/// them is __restrict__, which makes that undefined.
bool mayAlias(const ParmVarDecl &A, const ParmVarDecl &B) {
  return &A != &B && !A.getType().isRestrictQualified() &&
         !B.getType().isRestrictQualified();
}

/// The subscript \p Ref is the base of (`p[i]`, through casts and
/// parentheses), or null.
const ArraySubscriptExpr *subscriptOf(const DeclRefExpr &Ref, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(Ref);
  DynTypedNode Parent = parentOf(Node, Ctx);
  while (Parent.get<ImplicitCastExpr>() || Parent.get<ParenExpr>())
    Node = Parent, Parent = parentOf(Node, Ctx);
  const auto *A = Parent.get<ArraySubscriptExpr>();
  return A && A->getBase() == Node.get<Expr>() ? A : nullptr;
}

/// Whether \p Ref only reads: its value, or an element of the array it
/// names (`c_poly[d]` of a __constant__ table).
bool readsOnly(const DeclRefExpr &Ref, ASTContext &Ctx) {
  if (isPureRead(Ref, Ctx))
    return true;
  const ArraySubscriptExpr *A =
      Ref.getType()->isArrayType() ? subscriptOf(Ref, Ctx) : nullptr;
  return A && lvalueUseOf(*A, Ctx) == LvalueUse::Read;
}

/// Checks the body of an elementwise kernel, statement by statement, and
/// collects its buffers.
class BodyRules {
public:
  BodyRules(VectorizePlan &Plan, ASTContext &Ctx) : Plan(Plan), Ctx(Ctx) {}

  llvm::Error run(const FunctionDecl &Kernel);

private:
  llvm::Error checkStatement(const Stmt *S, unsigned Index);
  llvm::Error checkAccess(const DeclRefExpr &Ref, unsigned Index, bool Simple);
  llvm::Error checkOther(const Stmt *N);
  VectorBuffer &bufferFor(const ParmVarDecl &P);

  VectorizePlan &Plan;
  ASTContext &Ctx;
  /// Buffers written by earlier statements.
  llvm::SmallPtrSet<const ParmVarDecl *, 4> WrittenBefore;
  /// Buffers written by the current statement.
  llvm::SmallPtrSet<const ParmVarDecl *, 4> WrittenHere;
};

VectorBuffer &BodyRules::bufferFor(const ParmVarDecl &P) {
  for (VectorBuffer &B : Plan.Buffers)
    if (B.Param == &P)
      return B;
  VectorBuffer B;
  B.Param = &P;
  Plan.Buffers.push_back(B);
  return Plan.Buffers.back();
}

llvm::Error BodyRules::run(const FunctionDecl &Kernel) {
  // A pointer parameter used outside the body is used other than as p[i].
  for (const ParmVarDecl *P : Kernel.parameters()) {
    if (!P->getType()->isPointerType())
      continue;
    for (const DeclRefExpr *U : usesOf(*P, *Kernel.getBody(), Ctx))
      if (llvm::none_of(Plan.Body, [&](const Stmt *S) {
            return S->getSourceRange().fullyContains(U->getSourceRange());
          }))
        return illegalAt(U->getBeginLoc(), Ctx,
                         "'" + P->getName() + "' is used outside the " +
                             (Plan.Loop ? "loop body" : "guarded body"));
  }
  for (unsigned I = 0; I < Plan.Body.size(); ++I)
    if (llvm::Error E = checkStatement(Plan.Body[I], I))
      return E;
  // Stores follow the original order of the last writes; parameters in
  // order otherwise.
  llvm::stable_sort(Plan.Buffers, [&](const auto &A, const auto &B) {
    return A.Param->getFunctionScopeIndex() < B.Param->getFunctionScopeIndex();
  });
  if (Plan.Buffers.empty())
    return notApplicableAt(
        Plan.Guard ? Plan.Guard->getBeginLoc() : Plan.Loop->getBeginLoc(), Ctx,
        (Plan.Guard ? "the guarded body" : "the loop body") +
            llvm::Twine(" accesses no buffer at '") + Plan.Index->getName() +
            "'");
  return llvm::Error::success();
}

/// `p[i] = ...;` (or `p[i] += ...;`): the reads come before the write.
static bool isSimpleStore(const Stmt *S) {
  const auto *B = dyn_cast<BinaryOperator>(S);
  return B && B->isAssignmentOp() &&
         isa<ArraySubscriptExpr>(B->getLHS()->IgnoreParens());
}

/// The buffers \p S writes.
static llvm::SmallPtrSet<const ParmVarDecl *, 4> writesOf(const Stmt *S,
                                                          ASTContext &Ctx) {
  llvm::SmallPtrSet<const ParmVarDecl *, 4> Out;
  auto F = [&](const Stmt *N) {
    const auto *A = dyn_cast<ArraySubscriptExpr>(N);
    const auto *P = A ? dyn_cast_or_null<ParmVarDecl>(
                            refVar(A->getBase()->IgnoreParenImpCasts()))
                      : nullptr;
    if (P && lvalueUseOf(*A, Ctx) != LvalueUse::Read)
      Out.insert(P);
  };
  forEachNode(S, F);
  return Out;
}

llvm::Error BodyRules::checkStatement(const Stmt *S, unsigned Index) {
  // Within `p[i] = expr;` the reads come first; within anything else (a
  // loop, an if) a write may come before a read.
  auto Writes = writesOf(S, Ctx);
  bool Simple = isSimpleStore(S) &&
                writesOf(cast<BinaryOperator>(S)->getRHS(), Ctx).empty();
  WrittenHere.clear();
  if (!Simple)
    WrittenHere = Writes;
  llvm::Error Err = llvm::Error::success();
  auto F = [&](const Stmt *N) {
    if (Err)
      return;
    const auto *Ref = dyn_cast<DeclRefExpr>(N);
    const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (P && P->getType()->isPointerType())
      Err = checkAccess(*Ref, Index, Simple);
    else
      Err = checkOther(N);
  };
  forEachNode(S, F);
  WrittenBefore.insert(Writes.begin(), Writes.end());
  return Err;
}

/// Anything but p[i] that could touch memory or depend on the thread.
llvm::Error BodyRules::checkOther(const Stmt *N) {
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, LabelStmt, AsmStmt>(N))
    return illegalAt(N->getBeginLoc(), Ctx,
                     "the guarded body may not return, jump or use inline "
                     "assembly");
  if (const auto *C = dyn_cast<CallExpr>(N); C && !isHarmlessCall(*C, Ctx))
    return illegalAt(C->getBeginLoc(), Ctx,
                     "this call may touch memory, and the vector path moves "
                     "the loads before it and the stores after it");
  const VarDecl *V = refVar(N);
  if (V && !readsOnly(*cast<DeclRefExpr>(N), Ctx) &&
      llvm::none_of(Plan.Body, [&](const Stmt *S) {
        return S->getSourceRange().fullyContains(V->getLocation());
      }))
    return illegalAt(N->getBeginLoc(), Ctx,
                     "the body changes '" + V->getName() +
                         "', declared outside it, so the lanes of a thread "
                         "would share it");
  // Kernels cannot write __constant__ memory: its reads need no order.
  if (V && V->hasGlobalStorage() && !V->isLocalVarDecl() &&
      !V->isUsableInConstantExpressions(Ctx) && !V->hasAttr<CUDAConstantAttr>())
    return illegalAt(N->getBeginLoc(), Ctx,
                     "the body uses the global variable '" + V->getName() +
                         "', which the vector path cannot order against its "
                         "loads and stores");
  if (const auto *U = dyn_cast<UnaryOperator>(N);
      U && U->getOpcode() == UO_Deref)
    return illegalAt(N->getBeginLoc(), Ctx,
                     "the body dereferences a pointer other than a buffer "
                     "parameter at the index");
  if (const auto *M = dyn_cast<MemberExpr>(N); M && M->isArrow())
    return illegalAt(N->getBeginLoc(), Ctx,
                     "the body reads memory through '->'");
  return llvm::Error::success();
}

llvm::Error BodyRules::checkAccess(const DeclRefExpr &Ref, unsigned Index,
                                   bool Simple) {
  const auto &P = *cast<ParmVarDecl>(Ref.getDecl());
  const ArraySubscriptExpr *A = subscriptOf(Ref, Ctx);
  if (!A)
    return illegalAt(Ref.getBeginLoc(), Ctx,
                     "'" + P.getName() + "' is used other than as " +
                         P.getName() + "[" + Plan.Index->getName() + "]");
  if (refVar(A->getIdx()->IgnoreParenImpCasts()) != Plan.Index)
    return illegalAt(A->getBeginLoc(), Ctx,
                     "this access is at '" +
                         textOf(A->getIdx()->getSourceRange(), Ctx) +
                         "', not at '" + Plan.Index->getName() +
                         "' itself, so the lanes of a vector would not line "
                         "up with the elements");
  LvalueUse Use = lvalueUseOf(*A, Ctx);
  if (Use == LvalueUse::Escapes)
    return illegalAt(A->getBeginLoc(), Ctx,
                     "the address of this element of '" + P.getName() +
                         "' escapes (an atomic, a pointer)");
  VectorBuffer &B = bufferFor(P);
  if (Use != LvalueUse::Write) {
    // Another parameter may hold the same buffer, and the vector path
    // loads early: where a read comes after a write to another buffer, the
    // vector path runs only when the two pointers differ. Pointers that
    // overlap other than exactly would have had threads race on the
    // elements in the original, so equality is the case to keep.
    for (const ParmVarDecl *W : WrittenBefore)
      if (mayAlias(*W, P))
        Plan.addDistinct(W, &P);
    if (!Simple)
      for (const ParmVarDecl *W : WrittenHere)
        if (mayAlias(*W, P))
          Plan.addDistinct(W, &P);
    B.Read = true;
  }
  if (Use != LvalueUse::Read) {
    B.Written = true;
    B.LastWrite = Index;
  }
  Plan.Accesses.push_back(A);
  return llvm::Error::success();
}

/// The element types with vector types, and the widths that exist.
llvm::Error checkElementTypes(VectorizePlan &Plan, ASTContext &Ctx) {
  for (VectorBuffer &B : Plan.Buffers) {
    QualType T = B.Param->getType()->getPointeeType();
    const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
    if (BT && BT->getKind() == BuiltinType::Float)
      B.Element = "float";
    else if (BT && BT->getKind() == BuiltinType::Double)
      B.Element = "double";
    else if (BT && BT->getKind() == BuiltinType::Int)
      B.Element = "int";
    else
      return illegalAt(B.Param->getLocation(), Ctx,
                       "'" + B.Param->getName() + "' holds '" +
                           T.getUnqualifiedType().getAsString() +
                           "' elements; only float, double and int buffers "
                           "are vectorized");
    B.Vector = VectorizeLegality::vectorType(B.Element, Plan.Width);
    if (B.Vector.empty())
      return illegalAt(B.Param->getLocation(), Ctx,
                       "'" + B.Param->getName() + "' holds doubles, and " +
                           B.Element + llvm::Twine(Plan.Width) +
                           " does not exist (use width=2)");
  }
  return llvm::Error::success();
}

/// A buffer assigned whole by a statement of the body itself need not be
/// loaded: every lane's element is written before the store.
void decideLoads(VectorizePlan &Plan) {
  for (VectorBuffer &B : Plan.Buffers) {
    bool Whole = llvm::any_of(Plan.Body, [&](const Stmt *S) {
      const auto *Assign = dyn_cast<BinaryOperator>(S);
      if (!Assign || Assign->getOpcode() != BO_Assign)
        return false;
      const auto *A =
          dyn_cast<ArraySubscriptExpr>(Assign->getLHS()->IgnoreParens());
      return A && refVar(A->getBase()->IgnoreParenImpCasts()) == B.Param;
    });
    B.Load = B.Read || !Whole;
  }
}

/// Finds `int i = blockIdx.x * blockDim.x + threadIdx.x;`, the only use of
/// the thread geometry.
llvm::Error findIndex(const FunctionDecl &Kernel, VectorizePlan &Plan,
                      ASTContext &Ctx) {
  ThreadGeometry G = ThreadGeometry::of(Kernel, Ctx);
  if (G.IndexDims[1] || G.IndexDims[2])
    return illegalAt(Kernel.getLocation(), Ctx,
                     "'" + Kernel.getName() +
                         "' indexes in y or z; vectorize handles 1-D "
                         "elementwise kernels");
  if (!G.Strays.empty())
    return illegalAt(G.Strays.front().Where->getBeginLoc(), Ctx,
                     "the kernel " + G.Strays.front().What +
                         ", so its threads do not map one-to-one to elements");
  if (!G.LooseIndices.empty())
    return illegalAt(G.LooseIndices.front()->getBeginLoc(), Ctx,
                     "this global index is not kept in a variable");
  if (G.IndexVars.size() != 1)
    return illegalAt(
        Kernel.getLocation(), Ctx,
        "'" + Kernel.getName() +
            "' must compute exactly one global index "
            "blockIdx.x * blockDim.x + threadIdx.x, in a variable");
  const VarDecl *I = G.IndexVars.front();
  DynTypedNode Decl = parentOf(DynTypedNode::create(*I), Ctx);
  const auto *DS = Decl.get<DeclStmt>();
  if (!DS || !DS->isSingleDecl() ||
      parentOf(Decl, Ctx).get<CompoundStmt>() != Kernel.getBody() ||
      !I->getType()->isIntegerType())
    return illegalAt(I->getLocation(), Ctx,
                     "the global index '" + I->getName() +
                         "' must be an integer declared on its own at the "
                         "top of the kernel");
  for (const DeclRefExpr *U : usesOf(*I, *Kernel.getBody(), Ctx))
    if (!isPureRead(*U, Ctx))
      return illegalAt(U->getBeginLoc(), Ctx,
                       "the global index '" + I->getName() + "' is changed");
  Plan.Index = I;
  Plan.IndexDecl = DS;
  return llvm::Error::success();
}

/// The statements before the bounds check, and the check itself.
llvm::Error findGuard(const CompoundStmt &Body, VectorizePlan &Plan,
                      ASTContext &Ctx) {
  auto Stmts = Body.body();
  auto It = Stmts.begin();
  for (; It != Stmts.end() && !isa<IfStmt>(*It); ++It) {
    if (*It == Plan.IndexDecl)
      continue;
    if (refersTo(*It, Plan.Index) || BoundsGuard::touchesMemory(*It))
      return illegalAt((*It)->getBeginLoc(), Ctx,
                       "only declarations that touch no memory may come "
                       "before the bounds check");
    Plan.Prefix.push_back(*It);
  }
  if (It == Stmts.end())
    return illegalAt(Body.getBeginLoc(), Ctx,
                     "the kernel has no bounds check 'if (" +
                         Plan.Index->getName() + " < n)'");
  const auto *If = cast<IfStmt>(*It);
  bool Plain = !If->getElse() && !If->getInit() && !If->getConditionVariable();
  Plan.Guard = If;
  Plan.EarlyReturn = Plain && isReturn(If->getThen());
  Plan.Bound =
      Plain ? boundOf(If->getCond(), Plan.Index, Plan.EarlyReturn) : nullptr;
  bool Last = std::next(It) == Stmts.end();
  if (!Plan.Bound || Plan.EarlyReturn == Last ||
      llvm::find(Stmts, Plan.IndexDecl) > It)
    return illegalAt(If->getBeginLoc(), Ctx,
                     "vectorize expects the index declared first, then 'if (" +
                         Plan.Index->getName() + " < n) { ... }' or 'if (" +
                         Plan.Index->getName() +
                         " >= n) return;' followed by the body");
  if (refersTo(Plan.Bound, Plan.Index) ||
      BoundsGuard::touchesMemory(Plan.Bound))
    return illegalAt(Plan.Bound->getBeginLoc(), Ctx,
                     "the bound must not read memory or the index");
  if (Plan.EarlyReturn)
    Plan.Body.assign(std::next(It), Stmts.end());
  else if (const auto *C = dyn_cast<CompoundStmt>(If->getThen()))
    Plan.Body.assign(C->body_begin(), C->body_end());
  else
    Plan.Body.push_back(If->getThen());
  return llvm::Error::success();
}

/// The grid's thread count along x (isGridThreadCount), or a local never
/// changed that holds it.
bool isGridStride(const Expr *E, const FunctionDecl &Kernel, ASTContext &Ctx,
                  unsigned Depth = 0) {
  E = withoutValueCasts(E, /*IntegersOnly=*/true);
  if (const VarDecl *V = refVar(E))
    return Depth < 2 && V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
           V->getInit() && !isReassigned(*V, *Kernel.getBody(), Ctx) &&
           isGridStride(V->getInit(), Kernel, Ctx, Depth + 1);
  return isGridThreadCount(*E, 0);
}

/// A grid-stride kernel: the statements before its loop, the loop ending
/// the kernel, its counter (the only global index), bound and stride.
llvm::Error findGridStrideLoop(const FunctionDecl &Kernel, VectorizePlan &Plan,
                               ASTContext &Ctx) {
  ThreadGeometry G = ThreadGeometry::of(Kernel, Ctx);
  if (G.IndexDims[1] || G.IndexDims[2] || G.IndexVars.size() != 1 ||
      !G.Strays.empty() || !G.LooseIndices.empty())
    return illegalAt(Kernel.getLocation(), Ctx,
                     "'" + Kernel.getName() +
                         "' reads gridDim but is not a 1-D grid-stride loop "
                         "'for (i = blockIdx.x * blockDim.x + threadIdx.x; "
                         "i < n; i += blockDim.x * gridDim.x)'");
  const VarDecl *I = G.IndexVars.front();
  DynTypedNode Decl = parentOf(DynTypedNode::create(*I), Ctx);
  const auto *DS = Decl.get<DeclStmt>();
  const auto *Loop = DS ? parentOf(Decl, Ctx).get<ForStmt>() : nullptr;
  const auto *Body = cast<CompoundStmt>(Kernel.getBody());
  if (!Loop || Loop->getInit() != DS || !DS->isSingleDecl() ||
      Body->body_empty() || Body->body_back() != Loop ||
      !I->getType()->isIntegerType())
    return illegalAt(I->getLocation(), Ctx,
                     "the grid-stride loop over '" + I->getName() +
                         "' must declare it and be the kernel's last "
                         "statement");
  const auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Loop->getInc());
  if (!Inc || Inc->getOpcode() != BO_AddAssign ||
      refVar(Inc->getLHS()->IgnoreParenImpCasts()) != I ||
      !isGridStride(Inc->getRHS(), Kernel, Ctx))
    return illegalAt(Loop->getInc() ? Loop->getInc()->getBeginLoc()
                                    : Loop->getBeginLoc(),
                     Ctx,
                     "the loop does not step '" + I->getName() +
                         "' by the grid's thread count blockDim.x * "
                         "gridDim.x");
  Plan.Bound = Loop->getCond() ? boundOf(Loop->getCond(), I, false) : nullptr;
  if (!Plan.Bound || refersTo(Plan.Bound, I) ||
      BoundsGuard::touchesMemory(Plan.Bound))
    return illegalAt(Loop->getBeginLoc(), Ctx,
                     "the loop's condition must be '" + I->getName() +
                         " < n' with n reading neither memory nor the "
                         "index");
  for (const DeclRefExpr *U : usesOf(*I, *Loop->getBody(), Ctx))
    if (!isPureRead(*U, Ctx))
      return illegalAt(U->getBeginLoc(), Ctx,
                       "the global index '" + I->getName() + "' is changed");
  for (const Stmt *S : Body->body())
    if (S != Loop && BoundsGuard::touchesMemory(S))
      return illegalAt(S->getBeginLoc(), Ctx,
                       "only declarations that touch no memory may come "
                       "before the loop");
    else if (S != Loop)
      Plan.Prefix.push_back(S);
  Plan.Index = I;
  Plan.IndexDecl = DS;
  Plan.Loop = Loop;
  Plan.Stride = Inc->getRHS();
  if (const auto *C = dyn_cast<CompoundStmt>(Loop->getBody()))
    Plan.Body.assign(C->body_begin(), C->body_end());
  else
    Plan.Body.push_back(Loop->getBody());
  return llvm::Error::success();
}

/// Whether the kernel reads gridDim anywhere.
bool readsGridDim(const FunctionDecl &Kernel) {
  bool Found = false;
  auto F = [&](const Stmt *N) {
    Found |= isBuiltinRefNode(N) &&
             asBuiltinRef(cast<Expr>(N))->Which == BuiltinRef::GridDim;
  };
  forEachNode(Kernel.getBody(), F);
  return Found;
}

} // namespace

std::string VectorizeLegality::vectorType(llvm::StringRef Element,
                                          unsigned Width) {
  if (Element == "double" && Width != 2)
    return "";
  return Element.str() + std::to_string(Width);
}

llvm::Expected<VectorizePlan>
VectorizeLegality::analyze(const FunctionDecl &Kernel, unsigned Width,
                           ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  if (!Body)
    return notApplicableAt(Kernel.getLocation(), Ctx, "the kernel has no body");
  if (llvm::StringRef(textOf(Body->getSourceRange(), Ctx))
          .contains("optiml_base"))
    return notApplicableAt(Kernel.getLocation(), Ctx,
                           "'" + Kernel.getName() +
                               "' is already vectorized (it uses optiml_base)");
  VectorizePlan Plan;
  Plan.Width = Width;
  if (llvm::Error E =
          checkNoCooperation(Kernel, CooperationReasons::forMerging(), Ctx))
    return E;
  bool GridStride = readsGridDim(Kernel);
  if (GridStride) {
    if (llvm::Error E = findGridStrideLoop(Kernel, Plan, Ctx))
      return E;
  } else {
    if (llvm::Error E = findIndex(Kernel, Plan, Ctx))
      return E;
    if (llvm::Error E = findGuard(*Body, Plan, Ctx))
      return E;
  }
  BodyRules Rules(Plan, Ctx);
  if (llvm::Error E = Rules.run(Kernel))
    return E;
  if (llvm::Error E = checkElementTypes(Plan, Ctx))
    return E;
  decideLoads(Plan);
  auto Launches = dividableLaunches(Kernel, 0, Ctx);
  if (GridStride) {
    // Any grid covers the array; one written ceil(N / B) at every launch
    // (a thread per element) is divided, so that threads do not idle.
    if (Launches)
      Plan.Launches = std::move(*Launches);
    else
      llvm::consumeError(Launches.takeError());
    Plan.DivideGrid = bool(Launches);
    return Plan;
  }
  if (!Launches)
    return Launches.takeError();
  Plan.Launches = std::move(*Launches);
  return Plan;
}
