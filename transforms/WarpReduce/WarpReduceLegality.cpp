//===- WarpReduceLegality.cpp - may a tree reduction end in shuffles? ----===//

#include "transforms/WarpReduce/WarpReduceLegality.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Analysis/Legality/BlockUniform.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"
#include "optiml/Rewrite/TestedAlternative.h"

#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace optiml;
using namespace clang;
using namespace clang::ast_matchers;

std::string ReduceOp::combine(llvm::StringRef Own,
                              llvm::StringRef Other) const {
  llvm::StringRef First = OwnFirst ? Own : Other;
  llvm::StringRef Second = OwnFirst ? Other : Own;
  if (How == Call)
    return (Spelling + "(" + First + ", " + Second + ")").str();
  return (First + " " + Spelling + " " + Second).str();
}

namespace {

using Dim3 = std::array<uint64_t, 3>;

bool isConstant(const Expr *E, int64_t Value, const ASTContext &Ctx) {
  return LaunchConfig::constant(E, Ctx) == Value;
}

bool isBuiltin(const Expr *E, BuiltinRef::Var Which) {
  std::optional<BuiltinRef> B = asBuiltinRef(E);
  return B && B->Which == Which && B->Dim == 0;
}

/// `X / 2` or `X >> 1`, where \p IsX recognizes X.
template <typename Pred> bool isHalf(const Expr *E, Pred IsX, ASTContext &Ctx) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  return B && IsX(B->getLHS()) &&
         ((B->getOpcode() == BO_Div && isConstant(B->getRHS(), 2, Ctx)) ||
          (B->getOpcode() == BO_Shr && isConstant(B->getRHS(), 1, Ctx)));
}

/// `s > 0`, `s >= 1`, `s != 0` and their mirror images.
bool isPositiveTest(const Expr *Cond, const VarDecl *S, ASTContext &Ctx) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(
      Cond ? Cond->IgnoreParenImpCasts() : nullptr);
  if (!B)
    return false;
  const Expr *L = B->getLHS(), *R = B->getRHS();
  bool Left = referencedVar(L) == S, Right = referencedVar(R) == S;
  switch (B->getOpcode()) {
  case BO_GT:
    return Left && isConstant(R, 0, Ctx);
  case BO_GE:
    return Left && isConstant(R, 1, Ctx);
  case BO_LT:
    return Right && isConstant(L, 0, Ctx);
  case BO_LE:
    return Right && isConstant(L, 1, Ctx);
  case BO_NE:
    return (Left && isConstant(R, 0, Ctx)) || (Right && isConstant(L, 0, Ctx));
  default:
    return false;
  }
}

/// `s /= 2`, `s >>= 1`, `s = s / 2`, `s = s >> 1`.
bool isHalving(const Expr *Inc, const VarDecl *S, ASTContext &Ctx) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(
      Inc ? Inc->IgnoreParenImpCasts() : nullptr);
  if (!B || referencedVar(B->getLHS()) != S)
    return false;
  auto IsS = [&](const Expr *E) { return referencedVar(E) == S; };
  switch (B->getOpcode()) {
  case BO_DivAssign:
    return isConstant(B->getRHS(), 2, Ctx);
  case BO_ShrAssign:
    return isConstant(B->getRHS(), 1, Ctx);
  case BO_Assign:
    return isHalf(B->getRHS(), IsS, Ctx);
  default:
    return false;
  }
}

bool sameThread(const Expr *A, const Expr *B) {
  if (isBuiltin(A, BuiltinRef::ThreadIdx))
    return isBuiltin(B, BuiltinRef::ThreadIdx);
  return referencedVar(A) && referencedVar(A) == referencedVar(B);
}

/// The array of `buf[t]` (\p Partner false) or `buf[t + s]` / `buf[s + t]`
/// (\p Partner true), or null.
const VarDecl *element(const Expr *E, const TreeReduction &R, bool Partner) {
  const auto *A = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!A)
    return nullptr;
  const Expr *Idx = A->getIdx()->IgnoreParenImpCasts();
  if (!Partner)
    return sameThread(Idx, R.Thread) ? referencedVar(A->getBase()) : nullptr;
  const auto *Sum = dyn_cast<BinaryOperator>(Idx);
  if (!Sum || Sum->getOpcode() != BO_Add)
    return nullptr;
  bool Match = (sameThread(Sum->getLHS(), R.Thread) &&
                referencedVar(Sum->getRHS()) == R.Stride) ||
               (sameThread(Sum->getRHS(), R.Thread) &&
                referencedVar(Sum->getLHS()) == R.Stride);
  return Match ? referencedVar(A->getBase()) : nullptr;
}

bool isReductionOperator(BinaryOperatorKind Op) {
  return Op == BO_Add || Op == BO_Mul || Op == BO_And || Op == BO_Or ||
         Op == BO_Xor;
}

bool isReductionCallee(const FunctionDecl *F) {
  if (!F || !F->getIdentifier())
    return false;
  return llvm::is_contained({"max", "min", "fmaxf", "fminf", "fmax", "fmin"},
                            F->getName());
}

/// Whether __shfl_down_sync has an overload for \p T.
bool isShuffleable(QualType T) {
  const auto *B = T.getCanonicalType()->getAs<BuiltinType>();
  if (!B)
    return false;
  switch (B->getKind()) {
  case BuiltinType::Int:
  case BuiltinType::UInt:
  case BuiltinType::Long:
  case BuiltinType::ULong:
  case BuiltinType::LongLong:
  case BuiltinType::ULongLong:
  case BuiltinType::Float:
  case BuiltinType::Double:
    return true;
  default:
    return false;
  }
}

std::string dimsText(const Dim3 &D) {
  return "(" + std::to_string(D[0]) + ", " + std::to_string(D[1]) + ", " +
         std::to_string(D[2]) + ")";
}

/// A block (x, 1, 1), x a power of two from \p MinX to 1024: every tree
/// stride is a power of two, and for \p MinX 64 warp 0 is threads 0..31
/// of x.
bool isTreeBlock(const Dim3 &D, uint64_t MinX) {
  return D[0] >= MinX && D[0] <= 1024 && llvm::isPowerOf2_64(D[0]) &&
         D[1] == 1 && D[2] == 1;
}

/// "warp-reduce needs (x, 1, 1) with x a power of two from 64 to 1024".
std::string blockNeed(const TreeShape &Shape) {
  return Shape.Transform.str() + " needs (x, 1, 1) with x a power of two " +
         "from " + std::to_string(Shape.MinX) + " to 1024";
}

const char *const StepForms =
    "'buf[t] += buf[t + s]' (or *=, &=, |=, ^=), 'buf[t] = buf[t] + "
    "buf[t + s]', 'buf[t] = fmaxf(buf[t], buf[t + s])' (max, min, fminf, "
    "fmax, fmin) or 'buf[t] = v = v + buf[t + s]'";

} // namespace

const TreeShape optiml::WarpShape{
    "warp-reduce", "the warp step",
    "warp 0 may reach the shuffles with threads missing", 64, true};
const TreeShape optiml::SequentialShape{
    "sequential-reduce", "the halving tree",
    "the halving tree's barriers may wait for threads that left", 2, false};

std::string optiml::blockTest(const TreeReduction &R, const TreeShape &Shape) {
  std::string Size =
      !Shape.Shuffles ? "(blockDim.x & (blockDim.x - 1)) == 0"
      : R.Start       ? "blockDim.x >= 32"
                : "blockDim.x >= 64 && (blockDim.x & (blockDim.x - 1)) == 0";
  return Size + " && blockDim.y == 1 && blockDim.z == 1";
}

llvm::Error WarpReduceLegality::checkFallback(const TreeShape &Shape,
                                              const TreeReduction &R,
                                              ASTContext &Ctx) {
  // The loop an earlier rewrite kept for the blocks its test turns away:
  // the same test would turn them away again.
  std::string Test = blockTest(R, Shape);
  if (isKeptWhereTestFails(*R.Loop, Test, Ctx))
    return notApplicableAt(R.Loop->getBeginLoc(), Ctx,
                           "the loop is what runs where '" + Test +
                               "' fails, which " + Shape.Transform +
                               " would test again");
  return llvm::Error::success();
}

/// The first stride: blockDim.x / 2 (checked against the launches later) or
/// a constant power of two of at least a warp.
static llvm::Error matchStart(const Expr &Start, TreeReduction &R,
                              ASTContext &Ctx) {
  auto IsBlockDimX = [](const Expr *E) {
    return isBuiltin(E, BuiltinRef::BlockDim);
  };
  if (isHalf(&Start, IsBlockDimX, Ctx))
    return llvm::Error::success();
  std::optional<int64_t> C = LaunchConfig::constant(&Start, Ctx);
  if (!C)
    return notApplicableAt(Start.getBeginLoc(), Ctx,
                           "the stride starts at '" +
                               textOf(Start.getSourceRange(), Ctx) +
                               "', neither blockDim.x / 2 nor a constant");
  if (*C <= 0 || !llvm::isPowerOf2_64(*C))
    return illegalAt(Start.getBeginLoc(), Ctx,
                     "the stride starts at " + llvm::Twine(*C) +
                         ", not a power of two, so the tree does not "
                         "halve down to a warp's 32");
  if (*C < 32)
    return notApplicableAt(Start.getBeginLoc(), Ctx,
                           "the stride starts at " + llvm::Twine(*C) +
                               ", below a warp's 32: no step is left for "
                               "warp shuffles to take over");
  R.Start = uint64_t(*C);
  return llvm::Error::success();
}

llvm::Error WarpReduceLegality::matchHeader(const ForStmt &For,
                                            llvm::StringRef Site,
                                            TreeReduction &R, ASTContext &Ctx) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(For.getInit());
  const auto *S = Init && Init->isSingleDecl()
                      ? dyn_cast<VarDecl>(Init->getSingleDecl())
                      : nullptr;
  if (!S || !S->getInit() || !S->getType()->isIntegerType())
    return notApplicableAt(For.getBeginLoc(), Ctx,
                           "'" + Site +
                               "' does not declare an integer stride as in "
                               "'for (int s = blockDim.x / 2; s > 0; s /= 2)'");
  R.Stride = S;
  if (!isPositiveTest(For.getCond(), S, Ctx))
    return notApplicableAt(
        For.getCond() ? For.getCond()->getBeginLoc() : For.getBeginLoc(), Ctx,
        "the condition of '" + Site + "' is not '" + S->getName() + " > 0'");
  if (!isHalving(For.getInc(), S, Ctx))
    return notApplicableAt(
        For.getInc() ? For.getInc()->getBeginLoc() : For.getBeginLoc(), Ctx,
        "the step of '" + Site + "' is not '" + S->getName() + " /= 2' or '" +
            S->getName() + " >>= 1'");
  return matchStart(*S->getInit(), R, Ctx);
}

llvm::Error WarpReduceLegality::matchStep(const Stmt &Update, TreeReduction &R,
                                          ASTContext &Ctx) {
  auto Fail = [&] {
    return notApplicableAt(Update.getBeginLoc(), Ctx,
                           llvm::Twine("the step is not ") + StepForms);
  };
  const auto *Assign = dyn_cast<BinaryOperator>(&Update);
  const VarDecl *Buf = Assign ? element(Assign->getLHS(), R, false) : nullptr;
  if (!Buf)
    return Fail();
  R.Buffer = Buf;
  // `buf[t] = v = v OP buf[t + s]` (or `= v OP= buf[t + s]`): the thread's
  // partial is carried in v, and v is its own operand.
  const BinaryOperator *Step = Assign;
  if (const auto *Inner =
          dyn_cast<BinaryOperator>(Assign->getRHS()->IgnoreParenImpCasts());
      Assign->getOpcode() == BO_Assign && Inner && Inner->isAssignmentOp()) {
    const VarDecl *V = referencedVar(Inner->getLHS());
    if (!V || !V->isLocalVarDecl())
      return Fail();
    R.Carried = V;
    Step = Inner;
  }
  auto IsOwn = [&](const Expr *E) {
    return R.Carried ? referencedVar(E) == R.Carried
                     : element(E, R, false) == Buf;
  };
  const Expr *Value = Step->getRHS()->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<CompoundAssignOperator>(Step)) {
    BinaryOperatorKind Op =
        BinaryOperator::getOpForCompoundAssignment(C->getOpcode());
    if (!isReductionOperator(Op) || element(Value, R, true) != Buf)
      return Fail();
    R.Op = {ReduceOp::Compound, BinaryOperator::getOpcodeStr(Op).str(), true};
    return llvm::Error::success();
  }
  if (Step->getOpcode() != BO_Assign)
    return Fail();
  // `own = a OP b` or `own = f(a, b)`, {a, b} = {own, buf[t + s]}.
  const Expr *A = nullptr, *B = nullptr;
  if (const auto *Bin = dyn_cast<BinaryOperator>(Value);
      Bin && isReductionOperator(Bin->getOpcode())) {
    A = Bin->getLHS(), B = Bin->getRHS();
    R.Op = {ReduceOp::Binary, Bin->getOpcodeStr().str(), true};
  } else if (const auto *Call = dyn_cast<CallExpr>(Value);
             Call && Call->getNumArgs() == 2 &&
             isReductionCallee(Call->getDirectCallee())) {
    A = Call->getArg(0), B = Call->getArg(1);
    R.Op = {ReduceOp::Call, textOf(Call->getCallee()->getSourceRange(), Ctx),
            true};
    if (R.Op.Spelling.empty())
      return Fail();
  } else {
    return Fail();
  }
  if (IsOwn(A) && element(B, R, true) == Buf)
    return llvm::Error::success();
  R.Op.OwnFirst = false;
  if (element(A, R, true) == Buf && IsOwn(B))
    return llvm::Error::success();
  return Fail();
}

llvm::Error WarpReduceLegality::matchBody(const ForStmt &For,
                                          const FunctionDecl &Kernel,
                                          llvm::StringRef Site,
                                          TreeReduction &R, ASTContext &Ctx) {
  auto Fail = [&](const Stmt *At) {
    return notApplicableAt(
        At->getBeginLoc(), Ctx,
        "the body of '" + Site + "' is not '{ if (threadIdx.x < " +
            R.Stride->getName() + ") STEP; __syncthreads(); }'");
  };
  const auto *Body = dyn_cast<CompoundStmt>(For.getBody());
  if (!Body || Body->size() != 2)
    return Fail(For.getBody());
  const auto *If = dyn_cast<IfStmt>(Body->body_front());
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
      !isBlockBarrier(Body->body_back()))
    return Fail(Body);
  const auto *Guard = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParens());
  const Expr *Thread = nullptr;
  if (Guard && Guard->getOpcode() == BO_LT &&
      referencedVar(Guard->getRHS()) == R.Stride)
    Thread = Guard->getLHS();
  else if (Guard && Guard->getOpcode() == BO_GT &&
           referencedVar(Guard->getLHS()) == R.Stride)
    Thread = Guard->getRHS();
  if (!Thread || !isThreadX(*Thread, Kernel, Ctx))
    return notApplicableAt(If->getCond()->getBeginLoc(), Ctx,
                           "the guard is not 'threadIdx.x < " +
                               R.Stride->getName() +
                               "' (or a variable holding threadIdx.x): the "
                               "reduction must run along x");
  R.Thread = Thread->IgnoreParenImpCasts();
  const Stmt *Then = If->getThen();
  if (const auto *Block = dyn_cast<CompoundStmt>(Then);
      Block && Block->size() == 1)
    Then = Block->body_front();
  return matchStep(*Then, R, Ctx);
}

/// Whether \p Loc comes after the loop in the kernel's flow: after it in
/// the source and not in the other branch of an `if` the loop is in.
static bool isAfterLoop(SourceLocation Loc, const TreeReduction &R,
                        ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!SM.isBeforeInTranslationUnit(R.Loop->getEndLoc(), Loc))
    return false;
  auto Within = [&](const Stmt *S) { return spans(S, Loc, SM); };
  return llvm::none_of(enclosingStmts(*R.Loop, Ctx), [&](const Stmt *S) {
    const auto *If = dyn_cast<IfStmt>(S);
    return If && Within(If->getElse()) && !Within(If->getThen()) &&
           SM.isBeforeInTranslationUnit(R.Loop->getEndLoc(),
                                        If->getElse()->getBeginLoc());
  });
}

/// The statement that holds \p Loop in its block: the loop, or the
/// attributed statement of a pragma on it.
static const Stmt *statementOf(const ForStmt &Loop, ASTContext &Ctx) {
  DynTypedNode Parent = parentOf(DynTypedNode::create(Loop), Ctx);
  if (const auto *A = Parent.get<AttributedStmt>())
    return A;
  return &Loop;
}

/// The end of the first statement after the loop, in its block, where each
/// thread stores its own element again (`buf[t] = ...;`), with no return
/// in between: from there on every element the warp step left behind has
/// been overwritten. Invalid when there is none.
static SourceLocation restoredAt(const TreeReduction &R, ASTContext &Ctx) {
  const Stmt *Loop = statementOf(*R.Loop, Ctx);
  const auto *Block =
      parentOf(DynTypedNode::create(*Loop), Ctx).get<CompoundStmt>();
  if (!Block)
    return {};
  const auto *At = llvm::find(Block->body(), Loop);
  for (const Stmt *S : llvm::make_range(std::next(At), Block->body_end())) {
    const auto *Store = dyn_cast<BinaryOperator>(S);
    if (Store && Store->getOpcode() == BO_Assign &&
        element(Store->getLHS(), R, false) == R.Buffer)
      return S->getEndLoc();
    if (!nodesOf<ReturnStmt>(S).empty())
      return {};
  }
  return {};
}

llvm::Error WarpReduceLegality::checkBuffer(const FunctionDecl &Kernel,
                                            const TreeReduction &R,
                                            const TreeShape &Shape,
                                            ASTContext &Ctx) {
  const VarDecl &Buf = *R.Buffer;
  std::string Name = "'" + Buf.getNameAsString() + "'";
  const ArrayType *Array = Ctx.getAsArrayType(Buf.getType());
  if (!Buf.hasAttr<CUDASharedAttr>() || !Array)
    return notApplicableAt(Buf.getLocation(), Ctx,
                           Name + " is not a __shared__ array");
  // An `extern __shared__` array declared in the body belongs to the
  // kernel's block just the same.
  const auto *Owner = dyn_cast<FunctionDecl>(Buf.getLexicalDeclContext());
  if (!Owner || Owner->getCanonicalDecl() != Kernel.getCanonicalDecl())
    return illegalAt(Buf.getLocation(), Ctx,
                     Name + " is declared outside '" + Kernel.getName() +
                         "', so code elsewhere may read the elements " +
                         Shape.Leftovers + " leaves behind");
  // Every `extern __shared__` array starts at the same dynamic shared
  // memory: another one would read the elements under another name.
  if (Buf.hasExternalStorage())
    for (const DeclRefExpr *Ref : nodesOf<DeclRefExpr>(Kernel.getBody()))
      if (const auto *Other = dyn_cast<VarDecl>(Ref->getDecl());
          Other && Other != &Buf && Other->hasExternalStorage() &&
          Other->hasAttr<CUDASharedAttr>())
        return illegalAt(Ref->getBeginLoc(), Ctx,
                         "'" + Other->getName() +
                             "' shares the dynamic "
                             "shared memory of " +
                             Name + ", so the elements " + Shape.Leftovers +
                             " leaves behind may be read "
                             "through it");
  QualType Elem = Array->getElementType();
  if (Elem->isDependentType())
    return notApplicableAt(Buf.getLocation(), Ctx,
                           "the element type of " + Name +
                               " depends on a template parameter");
  if (Shape.Shuffles && !isShuffleable(Elem))
    return notApplicableAt(
        Buf.getLocation(), Ctx,
        "elements of type '" + Elem.getAsString() +
            "' cannot be exchanged by __shfl_down_sync (int, unsigned, long, "
            "long long, float or double only)");
  SourceLocation Restored = restoredAt(R, Ctx);
  for (const DeclRefExpr *Use : usesOf(Buf, *Kernel.getBody(), Ctx))
    if (llvm::Error E = checkUse(*Use, R, Shape, Restored, Ctx))
      return E;
  return llvm::Error::success();
}

namespace {

/// How an element `buf[i]` is used.
enum class Access { Read, Store, Update, Escape };

Access accessOf(const ArraySubscriptExpr &Sub, ASTContext &Ctx) {
  const Expr *Child = &Sub;
  DynTypedNode Parent = parentOf(DynTypedNode::create(Sub), Ctx);
  while (const auto *Paren = Parent.get<ParenExpr>()) {
    Child = Paren;
    Parent = parentOf(Parent, Ctx);
  }
  if (const auto *Cast = Parent.get<ImplicitCastExpr>())
    return Cast->getCastKind() == CK_LValueToRValue ? Access::Read
                                                    : Access::Escape;
  if (const auto *B = Parent.get<BinaryOperator>(); B && B->getLHS() == Child)
    return B->getOpcode() == BO_Assign   ? Access::Store
           : B->isCompoundAssignmentOp() ? Access::Update
                                         : Access::Escape;
  if (const auto *U = Parent.get<UnaryOperator>();
      U && U->isIncrementDecrementOp())
    return Access::Update;
  // Its address or a reference to it: later reads cannot be followed.
  return Access::Escape;
}

} // namespace

llvm::Error WarpReduceLegality::checkUse(const DeclRefExpr &Use,
                                         const TreeReduction &R,
                                         const TreeShape &Shape,
                                         SourceLocation Restored,
                                         ASTContext &Ctx) {
  std::string Name = R.Buffer->getNameAsString();
  DynTypedNode Decay = parentOf(DynTypedNode::create(Use), Ctx);
  const auto *Sub = parentOf(Decay, Ctx).get<ArraySubscriptExpr>();
  if (!Decay.get<ImplicitCastExpr>() || !Sub ||
      Sub->getBase() != Decay.get<Expr>())
    return illegalAt(Use.getBeginLoc(), Ctx,
                     "'" + Name + "' is used here other than as '" + Name +
                         "[i]', so the elements " + Shape.Leftovers +
                         " leaves behind may be read");
  std::string Text = "'" + textOf(Sub->getSourceRange(), Ctx) + "'";
  Access A = accessOf(*Sub, Ctx);
  if (A == Access::Escape)
    return illegalAt(Sub->getBeginLoc(), Ctx,
                     Text +
                         " is neither read nor assigned here, so the "
                         "elements " +
                         Shape.Leftovers +
                         " leaves behind may be read through it");
  const SourceManager &SM = Ctx.getSourceManager();
  if (!isAfterLoop(Use.getBeginLoc(), R, Ctx) || A == Access::Store ||
      isConstant(Sub->getIdx(), 0, Ctx) ||
      (Restored.isValid() &&
       SM.isBeforeInTranslationUnit(Restored, Use.getBeginLoc())))
    return llvm::Error::success();
  // Elements 1..63 end up different from the tree's partial results.
  return illegalAt(Sub->getBeginLoc(), Ctx,
                   Text + " is read after the loop, but after " +
                       Shape.Transform + " only " + Name +
                       "[0] holds the tree's result");
}

llvm::Error WarpReduceLegality::checkPlacement(const FunctionDecl &Kernel,
                                               const TreeReduction &R,
                                               const TreeShape &Shape,
                                               ASTContext &Ctx) {
  // All of warp 0 must reach the shuffles: the whole block reaches the loop
  // or none of it does, and returns before it take whole blocks.
  if (!isReachedByWholeBlock(*R.Loop, Kernel, Ctx))
    return illegalAt(R.Loop->getBeginLoc(), Ctx,
                     "the loop is nested in another loop or in a condition "
                     "that threads of a block may answer differently, so " +
                         Shape.Missing);
  if (const ReturnStmt *Ret = divergentReturnBefore(*R.Loop, Kernel, Ctx))
    return illegalAt(Ret->getBeginLoc(), Ctx,
                     "threads may return here, before the reduction, and "
                     "others not, so " +
                         Shape.Missing);
  return llvm::Error::success();
}

/// Whether \p Cond is `t == 0` (or `0 == t`, `!t`) for the tree's thread
/// index.
static bool isThreadZeroTest(const Expr *Cond, const TreeReduction &R,
                             ASTContext &Ctx) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(Cond);
      Not && Not->getOpcode() == UO_LNot)
    return sameThread(Not->getSubExpr()->IgnoreParenImpCasts(), R.Thread);
  const auto *Eq = dyn_cast<BinaryOperator>(Cond);
  if (!Eq || Eq->getOpcode() != BO_EQ)
    return false;
  const Expr *L = Eq->getLHS()->IgnoreParenImpCasts();
  const Expr *Rhs = Eq->getRHS()->IgnoreParenImpCasts();
  return (sameThread(L, R.Thread) && isConstant(Rhs, 0, Ctx)) ||
         (sameThread(Rhs, R.Thread) && isConstant(L, 0, Ctx));
}

llvm::Error WarpReduceLegality::checkCarried(const FunctionDecl &Kernel,
                                             const TreeReduction &R,
                                             const TreeShape &Shape,
                                             ASTContext &Ctx) {
  if (!R.Carried)
    return llvm::Error::success();
  const VarDecl &V = *R.Carried;
  QualType Elem = Ctx.getAsArrayType(R.Buffer->getType())->getElementType();
  if (!Ctx.hasSameUnqualifiedType(V.getType(), Elem))
    return notApplicableAt(
        V.getLocation(), Ctx,
        "'" + V.getName() + "' is a '" + V.getType().getAsString() +
            "', not a '" + Elem.getAsString() + "' like '" +
            R.Buffer->getName() + "': the shuffles could not carry it exactly");
  // Lanes 1..31 end with other partials in v than the tree leaves them;
  // lane 0 ends with the same.
  const SourceManager &SM = Ctx.getSourceManager();
  for (const DeclRefExpr *Use : usesOf(V, *Kernel.getBody(), Ctx)) {
    if (lvalueUseOf(*Use, Ctx) == LvalueUse::Escapes)
      return illegalAt(Use->getBeginLoc(), Ctx,
                       "'" + V.getName() +
                           "' escapes here, so its value after the loop "
                           "may be read anywhere");
    if (!isAfterLoop(Use->getBeginLoc(), R, Ctx))
      continue;
    bool InThreadZero =
        llvm::any_of(enclosingStmts(*Use, Ctx), [&](const Stmt *S) {
          const auto *If = dyn_cast<IfStmt>(S);
          return If && isThreadZeroTest(If->getCond(), R, Ctx) &&
                 SM.isBeforeInTranslationUnit(If->getCond()->getEndLoc(),
                                              Use->getBeginLoc()) &&
                 (!If->getElse() ||
                  SM.isBeforeInTranslationUnit(Use->getBeginLoc(),
                                               If->getElse()->getBeginLoc()));
        });
    if (!InThreadZero)
      return illegalAt(Use->getBeginLoc(), Ctx,
                       "'" + V.getName() +
                           "' is used after the loop outside 'if (" +
                           textOf(R.Thread->getSourceRange(), Ctx) +
                           " == 0)', but after " + Shape.Transform +
                           " only thread 0 "
                           "holds the tree's partial in it");
  }
  return llvm::Error::success();
}

/// The block of \p Kernel's `#pragma optiml` mark, where the spec launches
/// it for verification and timing, checked for \p Shape.
static llvm::Expected<std::optional<Dim3>>
treeMarkBlock(const FunctionDecl &Kernel, const TreeShape &Shape,
              ASTContext &Ctx) {
  auto Mark = markBlock(Kernel, Ctx);
  if (!Mark)
    return Mark.takeError();
  if (!*Mark)
    return std::nullopt;
  if (!isTreeBlock((*Mark)->Dims, Shape.MinX))
    return illegalAt((*Mark)->Where, Ctx,
                     "the #pragma optiml mark launches a block of " +
                         dimsText((*Mark)->Dims) + "; " + blockNeed(Shape));
  return (*Mark)->Dims;
}

llvm::Error WarpReduceLegality::checkLaunches(const FunctionDecl &Kernel,
                                              const TreeShape &Shape,
                                              TreeReduction &R,
                                              ASTContext &Ctx) {
  KernelLaunches Launches(Ctx, Kernel);
  // Launched through its address or from another file: blocks unseen.
  R.TestBlockAtRunTime =
      Launches.addressUse() != nullptr || Launches.calls().empty();
  for (const CUDAKernelCallExpr *Call : Launches.calls()) {
    ConfigOperand Block = LaunchConfig::operand(*Call, 1, Ctx);
    auto D = LaunchConfig::evaluate(Block, Ctx);
    if (!D) {
      R.TestBlockAtRunTime = true;
      continue;
    }
    if (!isTreeBlock(*D, Shape.MinX))
      return illegalAt(Block.Arg->getBeginLoc(), Ctx,
                       "this launch uses a block of " + dimsText(*D) + "; " +
                           blockNeed(Shape));
  }
  // The spec's launch, where the search measures, must take the rewrite.
  if (auto Mark = treeMarkBlock(Kernel, Shape, Ctx); !Mark)
    return Mark.takeError();
  return llvm::Error::success();
}

llvm::Expected<TreeReduction>
WarpReduceLegality::analyze(const Stmt &Loop, llvm::StringRef Site,
                            const FunctionDecl &Kernel, ASTContext &Ctx) {
  const auto *For = dyn_cast<ForStmt>(&Loop);
  if (!For)
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "'" + Site +
                               "' is not a for-loop; warp-reduce acts on a "
                               "for-loop tree reduction");
  TreeReduction R;
  R.Loop = For;
  if (llvm::Error E = matchHeader(*For, Site, R, Ctx))
    return E;
  if (llvm::Error E = matchBody(*For, Kernel, Site, R, Ctx))
    return E;
  if (llvm::Error E = checkTree(Kernel, WarpShape, R, Ctx))
    return E;
  return R;
}

llvm::Error WarpReduceLegality::checkTree(const FunctionDecl &Kernel,
                                          const TreeShape &Shape,
                                          TreeReduction &R, ASTContext &Ctx) {
  if (llvm::Error E = checkBuffer(Kernel, R, Shape, Ctx))
    return E;
  if (llvm::Error E = checkCarried(Kernel, R, Shape, Ctx))
    return E;
  if (llvm::Error E = checkPlacement(Kernel, R, Shape, Ctx))
    return E;
  if (llvm::Error E = checkLaunches(Kernel, Shape, R, Ctx))
    return E;
  if (R.TestBlockAtRunTime)
    return checkFallback(Shape, R, Ctx);
  return llvm::Error::success();
}

namespace {

/// `2 * s`, `s * 2`, `s << 1` or `s + s`.
bool isTwice(const Expr *E, const VarDecl *S, ASTContext &Ctx) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!B)
    return false;
  const Expr *L = B->getLHS(), *R = B->getRHS();
  switch (B->getOpcode()) {
  case BO_Mul:
    return (referencedVar(L) == S && isConstant(R, 2, Ctx)) ||
           (referencedVar(R) == S && isConstant(L, 2, Ctx));
  case BO_Shl:
    return referencedVar(L) == S && isConstant(R, 1, Ctx);
  case BO_Add:
    return referencedVar(L) == S && referencedVar(R) == S;
  default:
    return false;
  }
}

/// `s *= 2`, `s <<= 1`, `s += s` or `s = ` twice s.
bool isDoubling(const Expr *Inc, const VarDecl *S, ASTContext &Ctx) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(
      Inc ? Inc->IgnoreParenImpCasts() : nullptr);
  if (!B || referencedVar(B->getLHS()) != S)
    return false;
  switch (B->getOpcode()) {
  case BO_MulAssign:
    return isConstant(B->getRHS(), 2, Ctx);
  case BO_ShlAssign:
    return isConstant(B->getRHS(), 1, Ctx);
  case BO_AddAssign:
    return referencedVar(B->getRHS()) == S;
  case BO_Assign:
    return isTwice(B->getRHS(), S, Ctx);
  default:
    return false;
  }
}

/// The thread index t of `t % (2 * s) == 0`, `(t & (2 * s - 1)) == 0`
/// (or `0 == ...`, `!(...)`): the threads whose index is a multiple of
/// 2s. Null when \p Cond is neither.
const Expr *multipleOfTwiceStride(const Expr *Cond, const VarDecl *S,
                                  ASTContext &Ctx) {
  Cond = Cond->IgnoreParenImpCasts();
  const Expr *Test = nullptr;
  if (const auto *Not = dyn_cast<UnaryOperator>(Cond);
      Not && Not->getOpcode() == UO_LNot)
    Test = Not->getSubExpr();
  else if (const auto *Eq = dyn_cast<BinaryOperator>(Cond);
           Eq && Eq->getOpcode() == BO_EQ)
    Test = isConstant(Eq->getRHS(), 0, Ctx)   ? Eq->getLHS()
           : isConstant(Eq->getLHS(), 0, Ctx) ? Eq->getRHS()
                                              : nullptr;
  const auto *B = dyn_cast_or_null<BinaryOperator>(
      Test ? Test->IgnoreParenImpCasts() : nullptr);
  if (!B)
    return nullptr;
  if (B->getOpcode() == BO_Rem && isTwice(B->getRHS(), S, Ctx))
    return B->getLHS()->IgnoreParenImpCasts();
  const auto *Mask =
      dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
  if (B->getOpcode() == BO_And && Mask && Mask->getOpcode() == BO_Sub &&
      isTwice(Mask->getLHS(), S, Ctx) && isConstant(Mask->getRHS(), 1, Ctx))
    return B->getLHS()->IgnoreParenImpCasts();
  return nullptr;
}

} // namespace

llvm::Error WarpReduceLegality::matchInterleaved(const ForStmt &For,
                                                 const FunctionDecl &Kernel,
                                                 llvm::StringRef Site,
                                                 TreeReduction &R,
                                                 ASTContext &Ctx) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(For.getInit());
  const auto *S = Init && Init->isSingleDecl()
                      ? dyn_cast<VarDecl>(Init->getSingleDecl())
                      : nullptr;
  if (!S || !S->getInit() || !S->getType()->isIntegerType() ||
      !isConstant(S->getInit(), 1, Ctx))
    return notApplicableAt(For.getBeginLoc(), Ctx,
                           "'" + Site +
                               "' does not declare a stride from 1 as in "
                               "'for (int s = 1; s < blockDim.x; s *= 2)'");
  R.Stride = S;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For.getCond() ? For.getCond()->IgnoreParenImpCasts() : nullptr);
  bool Bounded =
      Cond &&
      ((Cond->getOpcode() == BO_LT && referencedVar(Cond->getLHS()) == S &&
        isBuiltin(Cond->getRHS(), BuiltinRef::BlockDim)) ||
       (Cond->getOpcode() == BO_GT && referencedVar(Cond->getRHS()) == S &&
        isBuiltin(Cond->getLHS(), BuiltinRef::BlockDim)));
  if (!Bounded)
    return notApplicableAt(For.getBeginLoc(), Ctx,
                           "the condition of '" + Site + "' is not '" +
                               S->getName() + " < blockDim.x'");
  if (!isDoubling(For.getInc(), S, Ctx))
    return notApplicableAt(
        For.getInc() ? For.getInc()->getBeginLoc() : For.getBeginLoc(), Ctx,
        "the step of '" + Site + "' is not '" + S->getName() + " *= 2' or '" +
            S->getName() + " <<= 1'");
  const auto *Body = dyn_cast<CompoundStmt>(For.getBody());
  const auto *If = Body && Body->size() == 2
                       ? dyn_cast<IfStmt>(Body->body_front())
                       : nullptr;
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
      !isBlockBarrier(Body->body_back()))
    return notApplicableAt(For.getBody()->getBeginLoc(), Ctx,
                           "the body of '" + Site +
                               "' is not '{ if (t % (2 * " + S->getName() +
                               ") == 0) STEP; __syncthreads(); }'");
  const Expr *Thread = multipleOfTwiceStride(If->getCond(), S, Ctx);
  if (!Thread || !isThreadX(*Thread, Kernel, Ctx))
    return notApplicableAt(If->getCond()->getBeginLoc(), Ctx,
                           "the guard is not 't % (2 * " + S->getName() +
                               ") == 0' with t threadIdx.x (or a variable "
                               "holding it)");
  R.Thread = Thread;
  const Stmt *Then = If->getThen();
  if (const auto *Block = dyn_cast<CompoundStmt>(Then);
      Block && Block->size() == 1)
    Then = Block->body_front();
  return matchStep(*Then, R, Ctx);
}

llvm::Expected<TreeReduction>
WarpReduceLegality::analyzeInterleaved(const Stmt &Loop, llvm::StringRef Site,
                                       const FunctionDecl &Kernel,
                                       ASTContext &Ctx) {
  const auto *For = dyn_cast<ForStmt>(&Loop);
  if (!For)
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "'" + Site +
                               "' is not a for-loop; sequential-reduce acts "
                               "on a for-loop tree reduction");
  TreeReduction R;
  R.Loop = For;
  if (llvm::Error E = matchInterleaved(*For, Kernel, Site, R, Ctx))
    return E;
  if (llvm::Error E = checkTree(Kernel, SequentialShape, R, Ctx))
    return E;
  return R;
}
