//===- WarpReduceLegality.cpp - may a tree reduction end in shuffles? ----===//

#include "transforms/WarpReduce/WarpReduceLegality.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/KernelBlock.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

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

const VarDecl *refVar(const Expr *E) {
  const auto *Ref =
      dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

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
  bool Left = refVar(L) == S, Right = refVar(R) == S;
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
  if (!B || refVar(B->getLHS()) != S)
    return false;
  auto IsS = [&](const Expr *E) { return refVar(E) == S; };
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

/// threadIdx.x itself, or a local integer variable initialized with it and
/// never changed.
bool isThreadX(const Expr *E, const FunctionDecl &Kernel, ASTContext &Ctx) {
  if (isBuiltin(E, BuiltinRef::ThreadIdx))
    return true;
  const VarDecl *V = refVar(E);
  // Narrower than 16 bits, the variable could wrap threadIdx.x (< 1024).
  if (!V || !V->isLocalVarDecl() || !V->getType()->isIntegerType() ||
      V->getType()->isDependentType() || Ctx.getIntWidth(V->getType()) < 16 ||
      !V->getInit() || !isBuiltin(V->getInit(), BuiltinRef::ThreadIdx))
    return false;
  return llvm::all_of(
      usesOf(*V, *Kernel.getBody(), Ctx),
      [&](const DeclRefExpr *U) { return isPureRead(*U, Ctx); });
}

bool sameThread(const Expr *A, const Expr *B) {
  if (isBuiltin(A, BuiltinRef::ThreadIdx))
    return isBuiltin(B, BuiltinRef::ThreadIdx);
  return refVar(A) && refVar(A) == refVar(B);
}

/// The array of `buf[t]` (\p Partner false) or `buf[t + s]` / `buf[s + t]`
/// (\p Partner true), or null.
const VarDecl *element(const Expr *E, const TreeReduction &R, bool Partner) {
  const auto *A = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!A)
    return nullptr;
  const Expr *Idx = A->getIdx()->IgnoreParenImpCasts();
  if (!Partner)
    return sameThread(Idx, R.Thread) ? refVar(A->getBase()) : nullptr;
  const auto *Sum = dyn_cast<BinaryOperator>(Idx);
  if (!Sum || Sum->getOpcode() != BO_Add)
    return nullptr;
  bool Match = (sameThread(Sum->getLHS(), R.Thread) &&
                refVar(Sum->getRHS()) == R.Stride) ||
               (sameThread(Sum->getRHS(), R.Thread) &&
                refVar(Sum->getLHS()) == R.Stride);
  return Match ? refVar(A->getBase()) : nullptr;
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

/// Warp 0 is threads 0..31 of x, and every tree stride is a power of two.
bool isWarpBlock(const Dim3 &D) {
  return D[0] >= 64 && D[0] <= 1024 && llvm::isPowerOf2_64(D[0]) && D[1] == 1 &&
         D[2] == 1;
}

const char *const StepForms =
    "'buf[t] += buf[t + s]' (or *=, &=, |=, ^=), 'buf[t] = buf[t] + "
    "buf[t + s]' or 'buf[t] = fmaxf(buf[t], buf[t + s])' (max, min, fminf, "
    "fmax, fmin)";

} // namespace

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
  const Expr *Value = Assign->getRHS()->IgnoreParenImpCasts();
  R.Buffer = Buf;
  if (const auto *C = dyn_cast<CompoundAssignOperator>(Assign)) {
    BinaryOperatorKind Op =
        BinaryOperator::getOpForCompoundAssignment(C->getOpcode());
    if (!isReductionOperator(Op) || element(Value, R, true) != Buf)
      return Fail();
    R.Op = {ReduceOp::Compound, BinaryOperator::getOpcodeStr(Op).str(), true};
    return llvm::Error::success();
  }
  if (Assign->getOpcode() != BO_Assign)
    return Fail();
  // `buf[t] = a OP b` or `buf[t] = f(a, b)`, {a, b} = {buf[t], buf[t + s]}.
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
  if (element(A, R, false) == Buf && element(B, R, true) == Buf)
    return llvm::Error::success();
  R.Op.OwnFirst = false;
  if (element(A, R, true) == Buf && element(B, R, false) == Buf)
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
  const auto *Sync = dyn_cast<CallExpr>(Body->body_back());
  const FunctionDecl *SyncF = Sync ? Sync->getDirectCallee() : nullptr;
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
      !SyncF || !SyncF->getIdentifier() || SyncF->getName() != "__syncthreads")
    return Fail(Body);
  const auto *Guard = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParens());
  const Expr *Thread = nullptr;
  if (Guard && Guard->getOpcode() == BO_LT &&
      refVar(Guard->getRHS()) == R.Stride)
    Thread = Guard->getLHS();
  else if (Guard && Guard->getOpcode() == BO_GT &&
           refVar(Guard->getLHS()) == R.Stride)
    Thread = Guard->getRHS();
  if (!Thread || !isThreadX(Thread, Kernel, Ctx))
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

llvm::Error WarpReduceLegality::checkBuffer(const FunctionDecl &Kernel,
                                            const TreeReduction &R,
                                            ASTContext &Ctx) {
  const VarDecl &Buf = *R.Buffer;
  std::string Name = "'" + Buf.getNameAsString() + "'";
  const ArrayType *Array = Ctx.getAsArrayType(Buf.getType());
  if (!Buf.hasAttr<CUDASharedAttr>() || !Array)
    return notApplicableAt(Buf.getLocation(), Ctx,
                           Name + " is not a __shared__ array");
  const auto *Owner = dyn_cast<FunctionDecl>(Buf.getDeclContext());
  if (!Owner || Owner->getCanonicalDecl() != Kernel.getCanonicalDecl())
    return illegalAt(Buf.getLocation(), Ctx,
                     Name + " is declared outside '" + Kernel.getName() +
                         "', so code elsewhere may read the elements the "
                         "warp step leaves behind");
  QualType Elem = Array->getElementType();
  if (Elem->isDependentType())
    return notApplicableAt(Buf.getLocation(), Ctx,
                           "the element type of " + Name +
                               " depends on a template parameter");
  if (!isShuffleable(Elem))
    return notApplicableAt(
        Buf.getLocation(), Ctx,
        "elements of type '" + Elem.getAsString() +
            "' cannot be exchanged by __shfl_down_sync (int, unsigned, long, "
            "long long, float or double only)");
  for (const DeclRefExpr *Use : usesOf(Buf, *Kernel.getBody(), Ctx))
    if (llvm::Error E = checkUse(*Use, R, Ctx))
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
                                         ASTContext &Ctx) {
  std::string Name = R.Buffer->getNameAsString();
  DynTypedNode Decay = parentOf(DynTypedNode::create(Use), Ctx);
  const auto *Sub = parentOf(Decay, Ctx).get<ArraySubscriptExpr>();
  if (!Decay.get<ImplicitCastExpr>() || !Sub ||
      Sub->getBase() != Decay.get<Expr>())
    return illegalAt(Use.getBeginLoc(), Ctx,
                     "'" + Name + "' is used here other than as '" + Name +
                         "[i]', so the elements the warp step leaves behind "
                         "may be read");
  std::string Text = "'" + textOf(Sub->getSourceRange(), Ctx) + "'";
  Access A = accessOf(*Sub, Ctx);
  if (A == Access::Escape)
    return illegalAt(Sub->getBeginLoc(), Ctx,
                     Text + " is neither read nor assigned here, so the "
                            "elements the warp step leaves behind may be "
                            "read through it");
  const SourceManager &SM = Ctx.getSourceManager();
  if (!SM.isBeforeInTranslationUnit(R.Loop->getEndLoc(), Use.getBeginLoc()) ||
      A == Access::Store || isConstant(Sub->getIdx(), 0, Ctx))
    return llvm::Error::success();
  // Elements 1..63 end up different from the tree's partial results.
  return illegalAt(Sub->getBeginLoc(), Ctx,
                   Text +
                       " is read after the loop, but after warp-reduce "
                       "only " +
                       Name + "[0] holds the tree's result");
}

llvm::Error WarpReduceLegality::checkPlacement(const FunctionDecl &Kernel,
                                               const TreeReduction &R,
                                               ASTContext &Ctx) {
  // All of warp 0 must reach the shuffles: the loop may sit only in plain
  // blocks of the body, and no return may come before it.
  DynTypedNode Node = DynTypedNode::create(*R.Loop);
  while (true) {
    DynTypedNode Parent = parentOf(Node, Ctx);
    if (Parent.get<CompoundStmt>() == Kernel.getBody())
      break;
    if (!Parent.get<CompoundStmt>() && !Parent.get<AttributedStmt>())
      return illegalAt(R.Loop->getBeginLoc(), Ctx,
                       "the loop is nested in a condition or another loop, so "
                       "warp 0 may reach the shuffles with threads missing");
    Node = Parent;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  for (const BoundNodes &N :
       match(findAll(returnStmt().bind("r")), *Kernel.getBody(), Ctx)) {
    const auto *Ret = N.getNodeAs<ReturnStmt>("r");
    if (SM.isBeforeInTranslationUnit(Ret->getBeginLoc(), R.Loop->getBeginLoc()))
      return illegalAt(Ret->getBeginLoc(), Ctx,
                       "threads may return here, before the reduction, so "
                       "warp 0 may reach the shuffles with threads missing");
  }
  return llvm::Error::success();
}

/// The block of \p Kernel's `#pragma optiml` mark, where the spec launches
/// it for verification and timing, checked for a warp reduction.
static llvm::Expected<std::optional<Dim3>>
warpMarkBlock(const FunctionDecl &Kernel, ASTContext &Ctx) {
  auto Mark = markBlock(Kernel, Ctx);
  if (!Mark)
    return Mark.takeError();
  if (!*Mark)
    return std::nullopt;
  if (!isWarpBlock((*Mark)->Dims))
    return illegalAt((*Mark)->Where, Ctx,
                     "the #pragma optiml mark launches a block of " +
                         dimsText((*Mark)->Dims) +
                         "; warp-reduce needs (x, 1, 1) with x a power of "
                         "two from 64 to 1024");
  return (*Mark)->Dims;
}

llvm::Error WarpReduceLegality::checkLaunches(const FunctionDecl &Kernel,
                                              TreeReduction &R,
                                              ASTContext &Ctx) {
  KernelLaunches Launches(Ctx, Kernel);
  if (const Expr *Use = Launches.addressUse())
    return illegalAt(Use->getBeginLoc(), Ctx,
                     "the address of '" + Kernel.getName() +
                         "' is taken, so some of its launches, and their "
                         "blocks, are out of reach");
  for (const CUDAKernelCallExpr *Call : Launches.calls()) {
    ConfigOperand Block = LaunchConfig::operand(*Call, 1, Ctx);
    auto D = LaunchConfig::evaluate(Block, Ctx);
    if (!D)
      return illegalAt(Block.Arg->getBeginLoc(), Ctx,
                       "the block of this launch is not a compile-time "
                       "constant");
    if (!isWarpBlock(*D))
      return illegalAt(Block.Arg->getBeginLoc(), Ctx,
                       "this launch uses a block of " + dimsText(*D) +
                           "; warp-reduce needs (x, 1, 1) with x a power of "
                           "two from 64 to 1024");
  }
  auto Mark = warpMarkBlock(Kernel, Ctx);
  if (!Mark)
    return Mark.takeError();
  if (Launches.calls().empty() && !*Mark)
    return illegalAt(Kernel.getLocation(), Ctx,
                     "'" + Kernel.getName() +
                         "' is not launched in this file and has no "
                         "#pragma optiml block(...), so its block is out of "
                         "reach");
  R.BlockFromMark = Launches.calls().empty();
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
  if (llvm::Error E = checkBuffer(Kernel, R, Ctx))
    return E;
  if (llvm::Error E = checkPlacement(Kernel, R, Ctx))
    return E;
  if (llvm::Error E = checkLaunches(Kernel, R, Ctx))
    return E;
  return R;
}
