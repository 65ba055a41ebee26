//===- WarpScanLegality.cpp - may a block scan become shuffles? ----------===//

#include "transforms/WarpScan/WarpScanLegality.h"
#include "optiml/Analysis/Legality/BlockUniform.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Rewrite/TestedAlternative.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

namespace {

bool isConstant(const Expr *E, int64_t Value, const ASTContext &Ctx) {
  return LaunchConfig::constant(E, Ctx) == Value;
}

bool isBlockDimX(const Expr *E) {
  std::optional<BuiltinRef> B = asBuiltinRef(E->IgnoreParenImpCasts());
  return B && B->Which == BuiltinRef::BlockDim && B->Dim == 0;
}

/// One half of the double buffer: `P * n + t` (any operand order).
struct Half {
  const VarDecl *Selector = nullptr; ///< P.
  const Expr *Stride = nullptr;      ///< n.
};

/// The scan as it is matched, before the checks that need the kernel.
class ScanMatcher {
public:
  ScanMatcher(const ForStmt &For, const FunctionDecl &Kernel, ASTContext &Ctx)
      : For(For), Kernel(Kernel), Ctx(Ctx) {}

  llvm::Error matchHeader();
  llvm::Error matchBody(WarpScanPlan &Plan);
  llvm::Error matchSingle(WarpScanPlan &Plan);
  llvm::Error checkBlocks(WarpScanPlan &Plan);
  llvm::Error checkAfter(const WarpScanPlan &Plan);

private:
  std::optional<Half> halfOf(const Expr *Index) const;
  bool isStep(const Expr *E, const Expr *&Target, const Expr *&Own,
              const Expr *&Other) const;
  bool isCopy(const Stmt *S, const Expr *&Target, const Expr *&Own) const;
  llvm::Error matchState(llvm::ArrayRef<const Stmt *> State, const Half &Out,
                         const Half &In) const;
  bool sameHalf(const std::optional<Half> &A, const Half &B) const;
  bool isOwn(const Expr *E) const;
  bool isNeighbour(const Expr *E) const;
  const VarDecl *neighbourRead(llvm::ArrayRef<const Stmt *> Read) const;
  const Expr *ownUpdate(const Stmt *S, const VarDecl *V) const;
  llvm::Error notScan(const Stmt &Where, const llvm::Twine &Why) const {
    return notApplicableAt(Where.getBeginLoc(), Ctx, Why);
  }

  const ForStmt &For;
  const FunctionDecl &Kernel;
  ASTContext &Ctx;
  const VarDecl *Counter = nullptr;
  const VarDecl *Buffer = nullptr;
  /// The bound the counter stays below, when it is a constant.
  std::optional<int64_t> ConstantBound;
  Half Out, In;
};

/// `c *= 2`, `c <<= 1`, `c += c`, `c = c * 2`, `c = 2 * c`, `c = c << 1`.
bool isDoubling(const Expr *Inc, const VarDecl *C, const ASTContext &Ctx) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(
      Inc ? Inc->IgnoreParenImpCasts() : nullptr);
  if (!B || referencedVar(B->getLHS()) != C)
    return false;
  const Expr *R = B->getRHS();
  switch (B->getOpcode()) {
  case BO_MulAssign:
    return isConstant(R, 2, Ctx);
  case BO_ShlAssign:
    return isConstant(R, 1, Ctx);
  case BO_AddAssign:
    return referencedVar(R) == C;
  case BO_Assign: {
    const auto *Op = dyn_cast<BinaryOperator>(R->IgnoreParenImpCasts());
    if (!Op)
      return false;
    const Expr *L = Op->getLHS(), *Rt = Op->getRHS();
    if (Op->getOpcode() == BO_Mul)
      return (referencedVar(L) == C && isConstant(Rt, 2, Ctx)) ||
             (referencedVar(Rt) == C && isConstant(L, 2, Ctx));
    return Op->getOpcode() == BO_Shl && referencedVar(L) == C &&
           isConstant(Rt, 1, Ctx);
  }
  default:
    return false;
  }
}

llvm::Error ScanMatcher::matchHeader() {
  const auto *Init = dyn_cast_or_null<DeclStmt>(For.getInit());
  Counter = Init && Init->isSingleDecl()
                ? dyn_cast<VarDecl>(Init->getSingleDecl())
                : nullptr;
  if (!Counter || !Counter->getType()->isIntegerType() || !Counter->getInit() ||
      !isConstant(Counter->getInit(), 1, Ctx))
    return notScan(For, "the loop does not declare a counter starting at 1");
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For.getCond() ? For.getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || Cond->getOpcode() != BO_LT ||
      referencedVar(Cond->getLHS()) != Counter)
    return notScan(For, "the condition is not '" + Counter->getName() +
                            " < blockDim.x'");
  if (!isBlockDimX(Cond->getRHS())) {
    ConstantBound = LaunchConfig::constant(Cond->getRHS(), Ctx);
    if (!ConstantBound)
      return notScan(For, "the condition is not '" + Counter->getName() +
                              " < blockDim.x' (or the block's x as a "
                              "constant)");
  }
  if (!isDoubling(For.getInc(), Counter, Ctx))
    return notScan(For, "the increment does not double '" + Counter->getName() +
                            "'");
  return llvm::Error::success();
}

std::optional<Half> ScanMatcher::halfOf(const Expr *Index) const {
  const auto *Sum = dyn_cast<BinaryOperator>(Index->IgnoreParenImpCasts());
  if (!Sum || Sum->getOpcode() != BO_Add)
    return std::nullopt;
  for (int Swap = 0; Swap < 2; ++Swap) {
    const Expr *Product = Swap ? Sum->getRHS() : Sum->getLHS();
    const Expr *T = Swap ? Sum->getLHS() : Sum->getRHS();
    const auto *Mul = dyn_cast<BinaryOperator>(Product->IgnoreParenImpCasts());
    if (!Mul || Mul->getOpcode() != BO_Mul || !isThreadX(*T, Kernel, Ctx))
      continue;
    for (int Order = 0; Order < 2; ++Order) {
      const Expr *P = Order ? Mul->getRHS() : Mul->getLHS();
      const Expr *N = Order ? Mul->getLHS() : Mul->getRHS();
      const VarDecl *V = referencedVar(P);
      if (V && V->isLocalVarDecl() && V->getType()->isIntegerType() &&
          (isBlockDimX(N) || LaunchConfig::constant(N, Ctx)))
        return Half{V, N};
    }
  }
  return std::nullopt;
}

bool ScanMatcher::sameHalf(const std::optional<Half> &A, const Half &B) const {
  if (!A || A->Selector != B.Selector)
    return false;
  if (isBlockDimX(A->Stride))
    return isBlockDimX(B.Stride);
  std::optional<int64_t> X = LaunchConfig::constant(A->Stride, Ctx);
  return X && X == LaunchConfig::constant(B.Stride, Ctx);
}

/// The element `buf[index]` of a __shared__ array: the array, the index.
std::pair<const VarDecl *, const Expr *> elementOf(const Expr *E) {
  const auto *A = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  const VarDecl *V = A ? referencedVar(A->getBase()) : nullptr;
  if (!V || !V->hasAttr<CUDASharedAttr>())
    return {nullptr, nullptr};
  return {V, A->getIdx()};
}

/// `buf[W] = buf[R] + buf[R - c]` (either order of the sum).
bool ScanMatcher::isStep(const Expr *E, const Expr *&Target, const Expr *&Own,
                         const Expr *&Other) const {
  const auto *Assign = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return false;
  const auto *Sum =
      dyn_cast<BinaryOperator>(Assign->getRHS()->IgnoreParenImpCasts());
  if (!Sum || Sum->getOpcode() != BO_Add)
    return false;
  for (int Swap = 0; Swap < 2; ++Swap) {
    const Expr *A = Swap ? Sum->getRHS() : Sum->getLHS();
    const Expr *B = Swap ? Sum->getLHS() : Sum->getRHS();
    auto [BufB, IdxB] = elementOf(B);
    const auto *Minus =
        IdxB ? dyn_cast<BinaryOperator>(IdxB->IgnoreParenImpCasts()) : nullptr;
    if (!Minus || Minus->getOpcode() != BO_Sub ||
        referencedVar(Minus->getRHS()) != Counter)
      continue;
    Target = Assign->getLHS(), Own = A, Other = B;
    return true;
  }
  return false;
}

/// `buf[W] = buf[R]`: the step of the threads below the offset.
bool ScanMatcher::isCopy(const Stmt *S, const Expr *&Target,
                         const Expr *&Own) const {
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(S); C && C->size() == 1)
    S = C->body_front();
  const auto *Assign = dyn_cast_or_null<BinaryOperator>(S);
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return false;
  Target = Assign->getLHS(), Own = Assign->getRHS();
  return true;
}

/// `t >= c` or `c <= t`.
bool isAtOrPast(const Expr *Cond, const VarDecl *C, const FunctionDecl &Kernel,
                ASTContext &Ctx) {
  const auto *B = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!B)
    return false;
  if (B->getOpcode() == BO_GE)
    return referencedVar(B->getRHS()) == C &&
           isThreadX(*B->getLHS(), Kernel, Ctx);
  if (B->getOpcode() == BO_LE)
    return referencedVar(B->getLHS()) == C &&
           isThreadX(*B->getRHS(), Kernel, Ctx);
  return false;
}

/// `V = 1 - W`.
bool isFlipOf(const Stmt *S, const VarDecl *V, const VarDecl *W,
              const ASTContext &Ctx) {
  const auto *Assign = dyn_cast_or_null<BinaryOperator>(S);
  if (!Assign || Assign->getOpcode() != BO_Assign ||
      referencedVar(Assign->getLHS()) != V)
    return false;
  const auto *Sub =
      dyn_cast<BinaryOperator>(Assign->getRHS()->IgnoreParenImpCasts());
  return Sub && Sub->getOpcode() == BO_Sub &&
         isConstant(Sub->getLHS(), 1, Ctx) && referencedVar(Sub->getRHS()) == W;
}

/// The halves alternate: P flips (`P = 1 - P`) and then Q = 1 - P, so
/// each step reads the half the one before wrote; nothing else is set.
llvm::Error ScanMatcher::matchState(llvm::ArrayRef<const Stmt *> State,
                                    const Half &Out, const Half &In) const {
  const VarDecl *P = Out.Selector, *Q = In.Selector;
  if (State.size() != 2 || P == Q || !isFlipOf(State[0], P, P, Ctx) ||
      !isFlipOf(State[1], Q, P, Ctx))
    return notScan(For, "the halves are not chosen by '" + P->getName() +
                            " = 1 - " + P->getName() + "; " + Q->getName() +
                            " = 1 - " + P->getName() +
                            ";' at the start of each step");
  return llvm::Error::success();
}

llvm::Error ScanMatcher::matchBody(WarpScanPlan &Plan) {
  const auto *Body = dyn_cast<CompoundStmt>(For.getBody());
  if (!Body || Body->size() < 2 || !isBlockBarrier(Body->body_back()))
    return notScan(For, "the loop's body does not end with __syncthreads()");
  std::vector<const Stmt *> Stmts(Body->body_begin(), Body->body_end());
  const auto *If = dyn_cast<IfStmt>(Stmts[Stmts.size() - 2]);
  if (!If || If->getInit() || If->getConditionVariable() || !If->getElse() ||
      !isAtOrPast(If->getCond(), Counter, Kernel, Ctx))
    return notScan(For, "the step is not 'if (t >= " + Counter->getName() +
                            ") ... else ...' before the barrier");
  const Stmt *Then = If->getThen();
  if (const auto *C = dyn_cast<CompoundStmt>(Then); C && C->size() == 1)
    Then = C->body_front();
  const Expr *Target = nullptr, *Own = nullptr, *Other = nullptr;
  const Expr *CopyTarget = nullptr, *CopyOwn = nullptr;
  if (!isa<Expr>(Then) || !isStep(cast<Expr>(Then), Target, Own, Other) ||
      !isCopy(If->getElse(), CopyTarget, CopyOwn))
    return notScan(*If, "the step is not 'buf[W] = buf[R] + buf[R - " +
                            Counter->getName() + "]' else 'buf[W] = buf[R]'");
  auto [BufT, W] = elementOf(Target);
  auto [BufO, R] = elementOf(Own);
  auto [BufX, RX] = elementOf(Other);
  auto [BufCT, CW] = elementOf(CopyTarget);
  auto [BufCO, CR] = elementOf(CopyOwn);
  std::optional<Half> OutHalf = W ? halfOf(W) : std::nullopt;
  std::optional<Half> InHalf = R ? halfOf(R) : std::nullopt;
  if (!BufT || BufT != BufO || BufT != BufX || BufT != BufCT || BufT != BufCO ||
      !OutHalf || !InHalf ||
      !sameHalf(
          halfOf(cast<BinaryOperator>(RX->IgnoreParenImpCasts())->getLHS()),
          *InHalf) ||
      !sameHalf(halfOf(CW), *OutHalf) || !sameHalf(halfOf(CR), *InHalf))
    return notScan(*If, "the step does not read one half of a __shared__ "
                        "array ('Q * n + t') and write the other ('P * n + "
                        "t') with t = threadIdx.x");
  Buffer = BufT, Out = *OutHalf, In = *InHalf;
  if (llvm::Error E = matchState(llvm::ArrayRef(Stmts).drop_back(2), Out, In))
    return E;
  Plan.Loop = &For;
  Plan.Buffer = Buffer;
  Plan.OwnRead = Own;
  Plan.Store = Target;
  Plan.State.assign(Stmts.begin(), Stmts.end() - 2);
  return llvm::Error::success();
}

/// `buf[t]` of the scanned array.
bool ScanMatcher::isOwn(const Expr *E) const {
  auto [Buf, Idx] = elementOf(E);
  return Buf && Buf == Buffer && isThreadX(*Idx, Kernel, Ctx);
}

/// `buf[t - c]` of the scanned array.
bool ScanMatcher::isNeighbour(const Expr *E) const {
  auto [Buf, Idx] = elementOf(E);
  const auto *Minus =
      Idx ? dyn_cast<BinaryOperator>(Idx->IgnoreParenImpCasts()) : nullptr;
  return Buf && Buf == Buffer && Minus && Minus->getOpcode() == BO_Sub &&
         isThreadX(*Minus->getLHS(), Kernel, Ctx) &&
         referencedVar(Minus->getRHS()) == Counter;
}

/// Whether \p E is a zero of any arithmetic type (`0`, `0.0f`).
bool isZero(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx))
    return false;
  return (R.Val.isInt() && R.Val.getInt().isZero()) ||
         (R.Val.isFloat() && R.Val.getFloat().isZero());
}

/// The register that the read statements leave holding `t >= c ?
/// buf[t - c] : 0`: `T v = t >= c ? buf[t - c] : 0;`, or `T v = 0; if (t
/// >= c) v = buf[t - c];`; null for anything else.
const VarDecl *
ScanMatcher::neighbourRead(llvm::ArrayRef<const Stmt *> Read) const {
  const auto *Decl = Read.empty() ? nullptr : dyn_cast<DeclStmt>(Read[0]);
  const auto *V = Decl && Decl->isSingleDecl()
                      ? dyn_cast<VarDecl>(Decl->getSingleDecl())
                      : nullptr;
  QualType Element =
      Buffer->getType()->getAsArrayTypeUnsafe()->getElementType();
  if (!V || !V->getInit() ||
      V->getType().getCanonicalType().getUnqualifiedType() !=
          Element.getCanonicalType().getUnqualifiedType())
    return nullptr;
  const Expr *Init = V->getInit()->IgnoreParenImpCasts();
  if (Read.size() == 1) {
    const auto *C = dyn_cast<ConditionalOperator>(Init);
    return C && isAtOrPast(C->getCond(), Counter, Kernel, Ctx) &&
                   isNeighbour(C->getTrueExpr()) &&
                   isZero(C->getFalseExpr(), Ctx)
               ? V
               : nullptr;
  }
  const auto *If = Read.size() == 2 ? dyn_cast<IfStmt>(Read[1]) : nullptr;
  if (!If || If->getElse() || If->getInit() || !isZero(Init, Ctx) ||
      !isAtOrPast(If->getCond(), Counter, Kernel, Ctx))
    return nullptr;
  const Stmt *Then = If->getThen();
  if (const auto *B = dyn_cast<CompoundStmt>(Then); B && B->size() == 1)
    Then = B->body_front();
  const auto *Assign = dyn_cast<BinaryOperator>(Then);
  return Assign && Assign->getOpcode() == BO_Assign &&
                 referencedVar(Assign->getLHS()) == V &&
                 isNeighbour(Assign->getRHS())
             ? V
             : nullptr;
}

/// The `buf[t]` that `buf[t] += v` (or `buf[t] = buf[t] + v`, `v +
/// buf[t]`), under `if (t >= c)` or not (v is 0 below c), updates; null
/// for anything else.
const Expr *ScanMatcher::ownUpdate(const Stmt *S, const VarDecl *V) const {
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (If->getElse() || If->getInit() ||
        !isAtOrPast(If->getCond(), Counter, Kernel, Ctx))
      return nullptr;
    S = If->getThen();
    if (const auto *B = dyn_cast<CompoundStmt>(S); B && B->size() == 1)
      S = B->body_front();
  }
  const auto *Assign = dyn_cast<BinaryOperator>(S);
  if (!Assign || !isOwn(Assign->getLHS()))
    return nullptr;
  if (Assign->getOpcode() == BO_AddAssign)
    return referencedVar(Assign->getRHS()) == V ? Assign->getLHS() : nullptr;
  const auto *Sum =
      dyn_cast<BinaryOperator>(Assign->getRHS()->IgnoreParenImpCasts());
  if (Assign->getOpcode() != BO_Assign || !Sum || Sum->getOpcode() != BO_Add)
    return nullptr;
  bool Matches = (isOwn(Sum->getLHS()) && referencedVar(Sum->getRHS()) == V) ||
                 (isOwn(Sum->getRHS()) && referencedVar(Sum->getLHS()) == V);
  return Matches ? Assign->getLHS() : nullptr;
}

/// The scan in one buffer, each step's neighbour read before a barrier:
///
///   for (int c = 1; c < blockDim.x; c *= 2) {
///     float v = t >= c ? buf[t - c] : 0;   // or: float v = 0; if (...) v =
///     ...;
///     __syncthreads();
///     buf[t] += v;                          // or under if (t >= c)
///     __syncthreads();
///   }
llvm::Error ScanMatcher::matchSingle(WarpScanPlan &Plan) {
  const auto *Body = cast<CompoundStmt>(For.getBody());
  std::vector<const Stmt *> Stmts(Body->body_begin(), Body->body_end());
  // The array is the one the neighbour read names.
  for (const ArraySubscriptExpr *A : nodesOf<ArraySubscriptExpr>(Body))
    if (auto [Buf, Idx] = elementOf(A); Buf) {
      Buffer = Buf;
      break;
    }
  size_t N = Stmts.size();
  const VarDecl *V = nullptr;
  const Expr *Own = nullptr;
  if (Buffer && (N == 4 || N == 5) && isBlockBarrier(Stmts[N - 3]) &&
      isBlockBarrier(Stmts[N - 1]))
    if ((V = neighbourRead(llvm::ArrayRef(Stmts).take_front(N - 3))))
      Own = ownUpdate(Stmts[N - 2], V);
  if (!Own)
    return notScan(For, "the loop is neither the double-buffered scan nor "
                        "'T v = t >= c ? buf[t - c] : 0; __syncthreads(); "
                        "buf[t] += v; __syncthreads();'");
  Plan.Loop = &For;
  Plan.Buffer = Buffer;
  Plan.OwnRead = Own;
  Plan.Store = Own;
  return llvm::Error::success();
}

/// Whether a block of \p D makes whole warps along x alone.
bool isWarpBlock(const std::array<uint64_t, 3> &D) {
  return D[0] % 32 == 0 && D[0] <= 1024 && D[1] == 1 && D[2] == 1;
}

llvm::Error ScanMatcher::checkBlocks(WarpScanPlan &Plan) {
  QualType T = Buffer->getType()->getAsArrayTypeUnsafe()->getElementType();
  const auto *B = T->getAs<BuiltinType>();
  if (!B || T.isVolatileQualified() ||
      !(B->getKind() == BuiltinType::Int || B->getKind() == BuiltinType::UInt ||
        B->getKind() == BuiltinType::LongLong ||
        B->getKind() == BuiltinType::ULongLong ||
        B->getKind() == BuiltinType::Float ||
        B->getKind() == BuiltinType::Double))
    return notApplicableAt(Buffer->getLocation(), Ctx,
                           "'" + Buffer->getName() + "' holds '" +
                               T.getAsString() +
                               "', which __shfl_up_sync does not carry");
  // n, the distance between the halves, must keep them apart.
  auto Known = knownBlocks(Kernel, Ctx);
  if (!Known)
    return Known.takeError();
  for (const auto &[Where, D] : Known->Blocks) {
    std::optional<int64_t> N =
        Out.Stride ? LaunchConfig::constant(Out.Stride, Ctx) : std::nullopt;
    if (!isWarpBlock(D) || (ConstantBound && *ConstantBound != int64_t(D[0])) ||
        (N && *N < int64_t(D[0])))
      return illegalAt(Where, Ctx,
                       "this launch's block is (" + llvm::Twine(D[0]) + ", " +
                           llvm::Twine(D[1]) + ", " + llvm::Twine(D[2]) +
                           "); the warps' scan needs (x, 1, 1) with x a "
                           "multiple of 32" +
                           (ConstantBound || N
                                ? " equal to the loop's bound and at most "
                                  "the halves' distance"
                                : ""));
  }
  Plan.TestBlockAtRunTime = Known->Unknown;
  if (Plan.TestBlockAtRunTime &&
      isKeptWhereTestFails(For, WarpScanLegality::BlockTest, Ctx))
    return notScan(For, "the loop is what runs where '" +
                            llvm::Twine(WarpScanLegality::BlockTest) +
                            "' fails, which warp-scan would test again");
  if (Plan.TestBlockAtRunTime &&
      (ConstantBound || (Out.Stride && !isBlockDimX(Out.Stride))))
    return illegalAt(For.getBeginLoc(), Ctx,
                     "some launch's block is not known here, and the loop "
                     "assumes one (a constant bound or distance between "
                     "the halves)");
  if (!isReachedByWholeBlock(For, Kernel, Ctx))
    return illegalAt(For.getBeginLoc(), Ctx,
                     "the loop is nested in another loop or in a condition "
                     "that threads of a block may answer differently, so "
                     "some warps' shuffles would miss lanes");
  if (const ReturnStmt *Ret = divergentReturnBefore(For, Kernel, Ctx))
    return illegalAt(Ret->getBeginLoc(), Ctx,
                     "threads may return here, before the scan, and others "
                     "not, so some warps' shuffles would miss lanes");
  return llvm::Error::success();
}

/// After the loop only the half the last step wrote holds the scan (a
/// single buffer holds it whole).
llvm::Error ScanMatcher::checkAfter(const WarpScanPlan &Plan) {
  if (!Out.Selector)
    return llvm::Error::success();
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = For.getEndLoc();
  for (const DeclRefExpr *Use : usesOf(*Buffer, *Kernel.getBody(), Ctx)) {
    if (!SM.isBeforeInTranslationUnit(End, Use->getBeginLoc()))
      continue;
    DynTypedNode Node = parentOf(DynTypedNode::create(*Use), Ctx);
    while (Node.get<ImplicitCastExpr>() || Node.get<ParenExpr>())
      Node = parentOf(Node, Ctx);
    const auto *A = Node.get<ArraySubscriptExpr>();
    if (!A || !sameHalf(halfOf(A->getIdx()), Out))
      return illegalAt(Use->getBeginLoc(), Ctx,
                       "'" + Buffer->getName() +
                           "' is used here other than in the half the scan "
                           "ends in ('" +
                           Out.Selector->getName() +
                           " * n + t'), which alone the warps' scan fills");
  }
  for (const DeclRefExpr *Use : usesOf(*Out.Selector, *Kernel.getBody(), Ctx))
    if (SM.isBeforeInTranslationUnit(End, Use->getBeginLoc()) &&
        !isPureRead(*Use, Ctx))
      return illegalAt(Use->getBeginLoc(), Ctx,
                       "'" + Out.Selector->getName() +
                           "' changes after the scan, so the half read "
                           "later is not known");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<WarpScanPlan> WarpScanLegality::check(const Site &S,
                                                     ASTContext &Ctx) {
  const auto *For = dyn_cast_or_null<ForStmt>(S.Loop);
  if (!For)
    return notApplicableAt(S.Loop ? S.Loop->getBeginLoc()
                                  : S.Kernel->getLocation(),
                           Ctx, "'" + S.Name + "' is not a for-loop");
  ScanMatcher M(*For, *S.Kernel, Ctx);
  WarpScanPlan Plan;
  if (llvm::Error E = M.matchHeader())
    return E;
  // One barrier a step: the double buffer; two: one buffer.
  const auto *Body = dyn_cast<CompoundStmt>(For->getBody());
  bool Single = Body && llvm::count_if(Body->body(), isBlockBarrier) == 2;
  if (llvm::Error E = Single ? M.matchSingle(Plan) : M.matchBody(Plan))
    return E;
  if (llvm::Error E = M.checkBlocks(Plan))
    return E;
  if (llvm::Error E = M.checkAfter(Plan))
    return E;
  // The rewrite copies the element reads, the store and the state updates
  // as written: a macro's body would come out with its parameters' names.
  for (const Stmt *S : {static_cast<const Stmt *>(Plan.OwnRead),
                        static_cast<const Stmt *>(Plan.Store)})
    if (S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID())
      return notApplicableAt(S->getBeginLoc(), Ctx,
                             "the step is written inside a macro");
  for (const Stmt *S : Plan.State)
    if (S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID())
      return notApplicableAt(S->getBeginLoc(), Ctx,
                             "the halves are chosen inside a macro");
  return Plan;
}
