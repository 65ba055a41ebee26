//===- StageSharedLegality.cpp - may a buffer go through smem? -----------===//

#include "transforms/StageShared/StageSharedLegality.h"
#include "optiml/Analysis/Legality/BlockUniform.h"
#include "optiml/Analysis/Legality/BoundsGuard.h"
#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/GuardTerms.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

namespace {

constexpr uint64_t SharedLimit = 48 * 1024; // Static __shared__ per block.

const ParmVarDecl *bufferOf(const ArraySubscriptExpr &A) {
  const auto *Ref = dyn_cast<DeclRefExpr>(A.getBase()->IgnoreParenImpCasts());
  return Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
}

bool isThreadIdx(const IndexAtom &A) {
  return A.isBuiltin(BuiltinRef::ThreadIdx);
}

/// The analysis of one site; fills a StagePlan step by step.
class Analysis {
public:
  Analysis(const FunctionDecl &Kernel, const ForStmt &Loop,
           const ParmVarDecl &Buffer, ASTContext &Ctx)
      : Kernel(Kernel), Loop(Loop), Buffer(Buffer), Ctx(Ctx) {}

  llvm::Expected<StagePlan> run(uint64_t Tile,
                                const std::array<uint64_t, 3> &Block);

private:
  llvm::Error checkBuffer();
  llvm::Error checkLoop();
  llvm::Error checkJoin();
  llvm::Error checkPlacement();
  llvm::Error checkReturns();
  llvm::Error checkOuterVariable();
  const Stmt &topStatement() const;
  llvm::Error collectAccesses();
  llvm::Error shapeOf(const ArraySubscriptExpr &A);
  llvm::Error rowVars(const ArraySubscriptExpr &A);
  llvm::Error loadGuards();
  llvm::Error checkSize();
  void deadGuards();
  bool onlyShared(const Stmt &S) const;
  bool readOnlyUnder(const VarDecl &V, const IfStmt &Guard) const;

  /// The polynomial of \p E with blockDim replaced by the block's sizes.
  llvm::Expected<IndexPolynomial> poly(const Expr &E);
  bool isJamVar(const VarDecl &V) const { return JamTrips.count(&V); }
  bool isThreadVarying(const IndexAtom &A) const {
    return isThreadIdx(A) || (A.Var && isJamVar(*A.Var));
  }
  bool varying(const IndexPolynomial &P) const {
    return P.mentions([&](const IndexAtom &A) { return isThreadVarying(A); });
  }
  /// The part of \p P that varies with the thread.
  IndexPolynomial threadPart(const IndexPolynomial &P) const {
    return P.select([&](const IndexPolynomial::Monomial &M) {
      return llvm::any_of(
          M, [&](const IndexAtom &A) { return isThreadVarying(A); });
    });
  }
  bool declaredIn(const VarDecl &V, const Stmt &S) const {
    return S.getSourceRange().fullyContains(V.getSourceRange());
  }
  std::string render(const IndexPolynomial &P) const;

  const FunctionDecl &Kernel;
  const ForStmt &Loop;
  const ParmVarDecl &Buffer;
  ASTContext &Ctx;
  StagePlan Plan;

  /// The loop(s) whose body holds the accesses, with their variable.
  std::vector<std::pair<const ForStmt *, const VarDecl *>> Bodies;
  llvm::DenseMap<const VarDecl *, uint64_t> JamTrips;
  // The access shape all accesses must share.
  std::optional<IndexPolynomial> Stride, Uniform, RowStride, RowPoly;
  unsigned RowDim = 0;
};

} // namespace

std::string Analysis::render(const IndexPolynomial &P) const {
  return P.str([](const IndexAtom &A) { return A.str(); });
}

llvm::Expected<IndexPolynomial> Analysis::poly(const Expr &E) {
  auto P = IndexPolynomial::of(E, Ctx);
  if (!P)
    return P.takeError();
  IndexPolynomial R = *P;
  for (unsigned D = 0; D < 3; ++D)
    R = R.substitute(IndexAtom::of(BuiltinRef{BuiltinRef::BlockDim, D}),
                     IndexPolynomial::constant(int64_t(Plan.Block[D])));
  return R;
}

llvm::Error Analysis::checkBuffer() {
  Plan.Buffer = &Buffer;
  auto Elem = StageSharedLegality::elementType(Buffer, Ctx);
  if (!Elem)
    return Elem.takeError();
  if (BufferAccess(Kernel, Ctx).mayWrite(Buffer))
    return illegalAt(Buffer.getLocation(), Ctx,
                     "the kernel may write through '" + Buffer.getName() +
                         "', so a shared-memory copy could go stale");
  Plan.ElemType = *Elem;
  Plan.ElemBytes =
      Ctx.getTypeSizeInChars(Buffer.getType()->getPointeeType()).getQuantity();
  return llvm::Error::success();
}

llvm::Expected<std::string>
StageSharedLegality::elementType(const ParmVarDecl &Buffer, ASTContext &Ctx) {
  QualType Elem = Buffer.getType()->getPointeeType();
  if (!Elem->isArithmeticType())
    return notApplicableAt(Buffer.getLocation(), Ctx,
                           "'" + Buffer.getName() +
                               "' does not point to numbers");
  return Elem.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
}

uint64_t StageSharedLegality::stagedTile(const ForStmt &Loop, ASTContext &Ctx) {
  auto L = analyzeLoop(Loop, Ctx);
  if (!L) {
    llvm::consumeError(L.takeError());
    return 0;
  }
  StringRef Name = L->IV->getName();
  if (!Name.starts_with("optiml_") || !Name.ends_with("0") || L->Step <= 0)
    return 0;
  return uint64_t(L->Step);
}

llvm::Error Analysis::checkLoop() {
  auto L = analyzeLoop(Loop, Ctx);
  if (!L)
    return L.takeError();
  if (StageSharedLegality::stagedTile(Loop, Ctx))
    return checkJoin();
  if (L->Step != 1 || (L->Cmp != BO_LT && L->Cmp != BO_LE))
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "the loop must count up by 1 to a bound (i < n)");
  for (const Expr *E : {L->Lower, L->Bound}) {
    if (isBlockUniform(*E, Kernel, Ctx))
      continue;
    auto P = poly(*E);
    if (!P || varying(*P) || P->mentions([](const IndexAtom &A) {
          return A.Var && !isa<ParmVarDecl>(A.Var);
        })) {
      if (!P)
        llvm::consumeError(P.takeError());
      return illegalAt(E->getBeginLoc(), Ctx,
                       "the loop bound '" + textOf(E->getSourceRange(), Ctx) +
                           "' may differ between the threads of a block, "
                           "which must all reach the same barriers");
    }
  }
  Plan.IV = L->IV;
  Plan.IVType = L->IV->getType().getAsString(Ctx.getPrintingPolicy());
  Plan.Lower = textOf(L->Lower->getSourceRange(), Ctx);
  Plan.Upper = textOf(L->Bound->getSourceRange(), Ctx);
  if (L->Cmp == BO_LE)
    Plan.Upper = "(" + Plan.Upper + ") + 1";
  Plan.TileVar = "optiml_" + L->IV->getName().str() + "0";
  Bodies.push_back({&Loop, L->IV});
  return llvm::Error::success();
}

/// A loop an earlier staging made: `for (T optiml_i0 = lo; optiml_i0 < hi;
/// optiml_i0 += T)` holding loads, a barrier and two copies of the original
/// loop `for (T i = optiml_i0; ...)`. The new buffer joins its tiles.
llvm::Error Analysis::checkJoin() {
  auto L = llvm::cantFail(analyzeLoop(Loop, Ctx));
  Plan.Join = true;
  Plan.TileVar = L.IV->getName().str();
  Plan.Upper = textOf(L.Bound->getSourceRange(), Ctx);
  Plan.IVType = L.IV->getType().getAsString(Ctx.getPrintingPolicy());
  for (const ForStmt *F : nodesOf<ForStmt>(Loop.getBody())) {
    auto Inner = analyzeLoop(*F, Ctx);
    if (!Inner) {
      llvm::consumeError(Inner.takeError());
      continue;
    }
    const auto *Init =
        dyn_cast<DeclRefExpr>(Inner->Lower->IgnoreParenImpCasts());
    if (Init && Init->getDecl() == L.IV && Inner->Step == 1)
      Bodies.push_back({F, Inner->IV});
  }
  const auto *Body = dyn_cast<CompoundStmt>(Loop.getBody());
  if (Bodies.empty() || !Body)
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "this tile loop does not have the form staging "
                           "writes");
  Plan.IV = Bodies.front().second;
  for (const Stmt *S : Body->body())
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && isCooperativeCall(*Call)) {
      Plan.FirstBarrier = S;
      break;
    }
  if (!Plan.FirstBarrier)
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "this tile loop has no barrier after its loads");
  // pipeline-shared drops the barrier that ends each tile: a single buffer
  // loaded at the top of the next one could be overwritten while it is read.
  const auto *Last = dyn_cast<CallExpr>(Body->body_back());
  if (!Last || !isCooperativeCall(*Last))
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "this tile loop has no barrier at its end (it is "
                           "pipelined); stage the buffer before pipelining "
                           "the loop");
  return llvm::Error::success();
}

/// Every thread of the block must run the same tiles and reach the
/// barriers: the loop leaves only at its end.
llvm::Error Analysis::checkPlacement() {
  for (const auto &[For, IV] : Bodies) {
    for (const BreakStmt *B : nodesOf<BreakStmt>(For->getBody()))
      return illegalAt(B->getBeginLoc(), Ctx,
                       "a 'break' would leave only the current tile");
    for (const ReturnStmt *R : nodesOf<ReturnStmt>(For->getBody()))
      return illegalAt(R->getBeginLoc(), Ctx,
                       "a 'return' inside the loop would skip barriers");
  }
  return llvm::Error::success();
}

/// Early returns before the loop become guards; nothing else may return.
/// The guards around the loop are split off its work (GuardSplit), with
/// the early returns' conditions.
llvm::Error Analysis::checkReturns() {
  if (!Plan.Join) {
    auto Fold = foldEarlyReturns(Kernel, topStatement(), Ctx);
    if (!Fold)
      return Fold.takeError();
    Plan.Fold = std::move(*Fold);
  }
  auto Split = GuardSplitter::split(Kernel, Loop, Plan.Fold, Plan.Join, Ctx);
  if (!Split)
    return Split.takeError();
  Plan.Split = std::move(*Split);
  return llvm::Error::success();
}

/// The statement of the kernel's body that holds the loop.
const Stmt &Analysis::topStatement() const {
  const Stmt *S = &Loop;
  while (true) {
    const Stmt *P = parentOf(DynTypedNode::create(*S), Ctx).get<Stmt>();
    if (!P || P == Kernel.getBody())
      return *S;
    S = P;
  }
}

/// A loop variable declared before the loop (`int k; for (k = 0; ...)`)
/// is left at its final value by the loop, which the tile loop does not
/// do: nothing else may read it.
llvm::Error Analysis::checkOuterVariable() {
  if (declaredIn(*Plan.IV, Loop))
    return llvm::Error::success();
  for (const DeclRefExpr *Use : usesOf(*Plan.IV, *Kernel.getBody(), Ctx))
    if (!Loop.getSourceRange().fullyContains(Use->getSourceRange()))
      return notApplicableAt(Use->getBeginLoc(), Ctx,
                             "'" + Plan.IV->getName() +
                                 "' is used outside the loop, which the "
                                 "tile loop would not leave at its final "
                                 "value");
  return llvm::Error::success();
}

llvm::Error Analysis::collectAccesses() {
  for (const auto &[For, IV] : Bodies) {
    for (const ArraySubscriptExpr *A :
         nodesOf<ArraySubscriptExpr>(For->getBody()))
      if (bufferOf(*A) == &Buffer)
        Plan.Accesses.push_back(A);
    for (const ForStmt *Inner : nodesOf<ForStmt>(For->getBody()))
      if (auto Trips = copyLoopTrips(*Inner, Ctx))
        JamTrips[llvm::cantFail(analyzeLoop(*Inner, Ctx)).IV] =
            uint64_t(*Trips);
  }
  if (Plan.Accesses.empty())
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "the loop does not read '" + Buffer.getName() +
                               "' by subscript");
  // Any other use of the buffer in the loop (pointer arithmetic, a call)
  // would bypass the copy.
  size_t Uses = usesOf(Buffer, *Loop.getBody(), Ctx).size();
  if (Uses != Plan.Accesses.size())
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "the loop uses '" + Buffer.getName() +
                               "' other than as 'p[index]'");
  for (const ArraySubscriptExpr *A : Plan.Accesses) {
    if (A->getBeginLoc().isMacroID())
      return notApplicableAt(A->getBeginLoc(), Ctx,
                             "the access is written inside a macro");
    if (llvm::Error E = shapeOf(*A))
      return E;
  }
  Plan.IndexText =
      textOf(Plan.Accesses.front()->getIdx()->getSourceRange(), Ctx);
  return rowVars(*Plan.Accesses.front());
}

/// The loop variable of the copy of the loop that holds \p A.
static const VarDecl *
ivOf(const ArraySubscriptExpr &A,
     llvm::ArrayRef<std::pair<const ForStmt *, const VarDecl *>> Bodies) {
  for (const auto &[For, IV] : Bodies)
    if (For->getSourceRange().fullyContains(A.getSourceRange()))
      return IV;
  return Bodies.front().second;
}

llvm::Error Analysis::shapeOf(const ArraySubscriptExpr &A) {
  std::string Where = "'" + textOf(A.getSourceRange(), Ctx) + "'";
  auto NA = [&](const llvm::Twine &Why) {
    return notApplicableAt(A.getBeginLoc(), Ctx, Where + ": " + Why);
  };
  const VarDecl *IV = ivOf(A, Bodies);
  auto P = poly(*A.getIdx());
  if (!P)
    return NA(llvm::toString(P.takeError()));
  IndexAtom I = IndexAtom::of(*IV);
  auto S = P->coefficient(I);
  if (!S || S->mentions([&](const IndexAtom &X) { return X == I; }))
    return NA("the index is not linear in '" + IV->getName() + "'");
  if (S->isZero())
    return NA("the index does not change with '" + IV->getName() +
              "'; there is nothing to stage across iterations");
  if (varying(*S))
    return NA("the stride across iterations varies between threads");
  IndexPolynomial R = *P - *S * IndexPolynomial::atom(I);
  if (R.mentions([&](const IndexAtom &X) {
        return X.Var && !isa<ParmVarDecl>(X.Var) && !isJamVar(*X.Var);
      }))
    return NA("the index reads a local that is not a polynomial of thread "
              "indices and parameters");
  IndexPolynomial V = threadPart(R), U = R - V;
  std::vector<unsigned> Dims;
  for (unsigned D = 0; D < 3; ++D)
    if (V.mentions([&](const IndexAtom &X) {
          return X.isBuiltin(BuiltinRef::ThreadIdx) && X.Dim == D;
        }))
      Dims.push_back(D);
  if (Dims.size() != 1)
    return NA(Dims.empty() ? "every thread of the block reads the same "
                             "element; there is nothing to share"
                           : "the index varies with two thread dimensions");
  unsigned D = Dims.front();
  IndexAtom TD = IndexAtom::of(BuiltinRef{BuiltinRef::ThreadIdx, D});
  auto Sr = V.coefficient(TD);
  if (!Sr || varying(*Sr))
    return NA("the stride across threads varies between threads");
  IndexPolynomial Rest = V - *Sr * IndexPolynomial::atom(TD);
  IndexPolynomial Row = IndexPolynomial::atom(TD);
  uint64_t Jam = 1;
  if (!Rest.isZero()) {
    // One coarsening copy c, as c * s * blockDim.d and nothing else.
    std::vector<const VarDecl *> Copies;
    for (const auto &[Var, Trip] : JamTrips)
      if (Rest.mentions(
              [&, V = Var](const IndexAtom &X) { return X.Var == V; }))
        Copies.push_back(Var);
    const VarDecl *C = Copies.size() == 1 ? Copies.front() : nullptr;
    IndexAtom CA = C ? IndexAtom::of(*C) : IndexAtom{};
    auto Coef = C ? Rest.coefficient(CA) : std::nullopt;
    IndexPolynomial Block = IndexPolynomial::constant(int64_t(Plan.Block[D]));
    if (!C || !Coef || !(*Coef == *Sr * Block) ||
        !(Rest - *Coef * IndexPolynomial::atom(CA)).isZero())
      return NA("the rows the block reads are not threadIdx." +
                llvm::Twine("xyz"[D]) +
                " (+ c * blockDim for a coarsening copy c)");
    Jam = JamTrips.lookup(C);
    Row = Row + IndexPolynomial::atom(CA) * Block;
  }
  if (Stride && (Stride->str() != S->str() || Uniform->str() != U.str() ||
                 RowStride->str() != Sr->str() || RowPoly->str() != Row.str()))
    return NA("the loop reads '" + Buffer.getName() +
              "' at two different places of the tile");
  Stride = *S, Uniform = U, RowStride = *Sr, RowPoly = Row, RowDim = D;
  Plan.Rows = Plan.Block[D] * Jam;
  Plan.RowText = render(Row);
  bool ContiguousInT = S->asConstant() == 1;
  Plan.RowMajor = ContiguousInT || Sr->asConstant() != 1;
  Plan.Pad = Plan.RowMajor && D == 0 ? 1 : 0;
  return llvm::Error::success();
}

llvm::Error Analysis::rowVars(const ArraySubscriptExpr &A) {
  const VarDecl *IV = ivOf(A, Bodies);
  for (const DeclRefExpr *Ref : nodesOf<DeclRefExpr>(A.getIdx())) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if (!V || V == IV || isa<ParmVarDecl>(V) ||
        llvm::any_of(Plan.RowVars, [&](auto &R) { return R.first == V; }))
      continue;
    auto P = poly(*Ref);
    if (!P)
      return P.takeError();
    IndexPolynomial T = threadPart(*P);
    if (T.isZero()) {
      if (declaredIn(*V, *Loop.getBody()))
        return notApplicableAt(Ref->getBeginLoc(), Ctx,
                               "the index reads '" + V->getName() +
                                   "', declared inside the loop");
      continue;
    }
    if (T.str() != RowPoly->str())
      return notApplicableAt(Ref->getBeginLoc(), Ctx,
                             "'" + V->getName() +
                                 "' varies across the block's threads "
                                 "differently from the staged rows");
    Plan.RowVars.push_back({V, render(*P - T)});
  }
  return llvm::Error::success();
}

llvm::Error Analysis::loadGuards() {
  // Only conditions that hold at every access may limit the loads.
  std::vector<std::vector<GuardTerm>> All;
  for (const ArraySubscriptExpr *A : Plan.Accesses)
    All.push_back(guardTermsAt(*A, Kernel, Ctx));
  auto HasText = [&](const std::vector<GuardTerm> &Ts, const std::string &T) {
    return llvm::any_of(Ts,
                        [&](const GuardTerm &X) { return X.str(Ctx) == T; });
  };
  // The guards kept around the loop (the same for the whole block) hold
  // where the loads run.
  std::vector<GuardTerm> Kept;
  for (const IfStmt *If : Plan.Split.Kept)
    splitConjuncts(If->getCond(), false, Kept);
  auto IsKept = [&](const GuardTerm &T) {
    return llvm::any_of(Kept, [&](const GuardTerm &K) {
      return K.Cond == T.Cond && K.Negated == T.Negated;
    });
  };
  for (const GuardTerm &T : All.front()) {
    std::string Text = T.str(Ctx);
    if (IsKept(T) || llvm::is_contained(Plan.LoadGuards, Text) ||
        !llvm::all_of(All, [&](auto &Ts) { return HasText(Ts, Text); }))
      continue;
    bool Row = false, Other = false;
    for (const DeclRefExpr *Ref : nodesOf<DeclRefExpr>(T.Cond)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!V || isa<ParmVarDecl>(V))
        continue;
      bool IsIV = llvm::any_of(Bodies, [&](auto &B) { return B.second == V; });
      bool IsRow =
          llvm::any_of(Plan.RowVars, [&](auto &R) { return R.first == V; });
      if (IsIV || IsRow) {
        Row = true;
        continue;
      }
      auto P = poly(*Ref);
      bool Uniform = P && !varying(*P) && !declaredIn(*V, *Loop.getBody());
      if (!P)
        llvm::consumeError(P.takeError());
      Other |= !Uniform;
    }
    bool Memory = BoundsGuard::touchesMemory(T.Cond);
    if (Row && (Other || Memory))
      return illegalAt(T.Cond->getBeginLoc(), Ctx,
                       "the guard '" + Text +
                           "' bounds the staged rows together with "
                           "something the loading thread cannot evaluate");
    if (!Other && !Memory)
      Plan.LoadGuards.push_back(Text);
  }
  return llvm::Error::success();
}

llvm::Error Analysis::checkSize() {
  return StageSharedLegality::checkTileFits(
      Kernel, Buffer, Plan.Rows * (Plan.Tile + Plan.Pad) * Plan.ElemBytes,
      Loop.getBeginLoc(), Ctx);
}

llvm::Error StageSharedLegality::checkTileFits(const FunctionDecl &Kernel,
                                               const ParmVarDecl &Buffer,
                                               uint64_t TileBytes,
                                               SourceLocation Where,
                                               ASTContext &Ctx) {
  std::string Name = "optiml_" + Buffer.getName().str() + "_s";
  uint64_t Bytes = TileBytes;
  for (const DeclStmt *DS : nodesOf<DeclStmt>(Kernel.getBody()))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D)) {
        if (V->getName() == Name)
          return notApplicableAt(V->getLocation(), Ctx,
                                 "'" + Buffer.getName() +
                                     "' is already staged in this kernel");
        if (V->hasAttr<CUDASharedAttr>() && V->getType()->isConstantSizeType())
          Bytes += Ctx.getTypeSizeInChars(V->getType()).getQuantity();
      }
  if (Bytes > SharedLimit)
    return illegalAt(Where, Ctx,
                     "the tiles would need " + llvm::Twine(Bytes) +
                         " bytes of shared memory, more than 48 KiB");
  return llvm::Error::success();
}

llvm::Expected<StagePlan> Analysis::run(uint64_t Tile,
                                        const std::array<uint64_t, 3> &Block) {
  Plan.Loop = &Loop;
  Plan.Tile = Tile;
  Plan.Block = Block;
  if (llvm::Error E = checkBuffer())
    return E;
  if (llvm::Error E = checkLoop())
    return E;
  if (Plan.Join && StageSharedLegality::stagedTile(Loop, Ctx) != Tile)
    return notApplicableAt(
        Loop.getBeginLoc(), Ctx,
        "this loop is already staged with tiles of " +
            llvm::Twine(StageSharedLegality::stagedTile(Loop, Ctx)) +
            "; a buffer joining it must use the same");
  if (llvm::Error E = checkPlacement())
    return E;
  if (llvm::Error E = checkReturns())
    return E;
  if (!Plan.Join)
    if (llvm::Error E = checkOuterVariable())
      return E;
  if (llvm::Error E = collectAccesses())
    return E;
  if (llvm::Error E = loadGuards())
    return E;
  if (llvm::Error E = checkSize())
    return E;
  deadGuards();
  return Plan;
}

/// Whether \p S, once the accesses of this staging are redirected, reads
/// memory only from shared tiles and thread-local arrays.
bool Analysis::onlyShared(const Stmt &S) const {
  if (isa<CallExpr>(S) && !isBuiltinRefNode(&S))
    return false;
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(&S)) {
    if (llvm::is_contained(Plan.Accesses, A))
      return onlyShared(*A->getIdx());
    const Expr *Base = A->getBase()->IgnoreParenImpCasts();
    while (const auto *Inner = dyn_cast<ArraySubscriptExpr>(Base))
      Base = Inner->getBase()->IgnoreParenImpCasts();
    const auto *Ref = dyn_cast<DeclRefExpr>(Base);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!V || !V->getType()->isArrayType())
      return false; // A pointer: global memory.
  }
  if (const auto *U = dyn_cast<UnaryOperator>(&S);
      U && U->getOpcode() == UO_Deref)
    return false;
  if (const auto *M = dyn_cast<MemberExpr>(&S); M && M->isArrow())
    return false;
  if (isBuiltinRefNode(&S))
    return true;
  return llvm::all_of(S.children(),
                      [&](const Stmt *C) { return !C || onlyShared(*C); });
}

/// Whether every read of \p V outside \p Guard's own statement happens
/// under a condition written exactly like \p Guard's.
bool Analysis::readOnlyUnder(const VarDecl &V, const IfStmt &Guard) const {
  std::string Cond = textOf(Guard.getCond()->getSourceRange(), Ctx);
  for (const DeclRefExpr *Use : usesOf(V, *Kernel.getBody(), Ctx)) {
    if (Guard.getSourceRange().fullyContains(Use->getSourceRange()))
      continue;
    // A write (`acc[c] = 0.0f`) observes nothing.
    DynTypedNode Node = DynTypedNode::create(*Use);
    const Stmt *Child = Use;
    bool Written = false, Guarded = false;
    while (true) {
      DynTypedNode Parent = parentOf(Node, Ctx);
      const Stmt *P = Parent.get<Stmt>();
      if (!P || P == Kernel.getBody())
        break;
      if (const auto *B = dyn_cast<BinaryOperator>(P);
          B && B->getOpcode() == BO_Assign && B->getLHS() == Child)
        Written = true;
      if (const auto *If = dyn_cast<IfStmt>(P);
          If && If->getThen() == Child &&
          textOf(If->getCond()->getSourceRange(), Ctx) == Cond)
        Guarded = true;
      Node = Parent;
      Child = P;
    }
    if (!Written && !Guarded)
      return false;
  }
  return true;
}

/// Guards that, once the loads are from shared memory, only protect a
/// value nobody reads unguarded: `if (!(row >= m)) acc[c] += As[..] * ..`
/// where every later read of acc is under the same condition. Dropping
/// them lets the compiler share the tile's loads between coarsening
/// copies instead of repeating them under each copy's predicate.
void Analysis::deadGuards() {
  for (const auto &[For, IV] : Bodies)
    for (const IfStmt *If : nodesOf<IfStmt>(For->getBody())) {
      const Stmt *Then = If->getThen();
      if (const auto *C = dyn_cast<CompoundStmt>(Then); C && C->size() == 1)
        Then = C->body_front();
      const auto *Update = dyn_cast<BinaryOperator>(Then);
      if (If->getElse() || If->hasInitStorage() || If->hasVarStorage() ||
          BoundsGuard::touchesMemory(If->getCond()) || !Update ||
          !Update->isAssignmentOp() || !onlyShared(*Update->getRHS()))
        continue;
      const Expr *Target = Update->getLHS()->IgnoreParenImpCasts();
      while (const auto *A = dyn_cast<ArraySubscriptExpr>(Target)) {
        if (!onlyShared(*A->getIdx()))
          Target = nullptr;
        else
          Target = A->getBase()->IgnoreParenImpCasts();
        if (!Target)
          break;
      }
      const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Target);
      const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      if (V && V->isLocalVarDecl() && !V->hasAttr<CUDASharedAttr>() &&
          readOnlyUnder(*V, *If))
        Plan.DeadGuards.push_back(If);
    }
}

llvm::Expected<StagePlan> StageSharedLegality::analyze(
    const FunctionDecl &Kernel, const ForStmt &Loop, const ParmVarDecl &Buffer,
    uint64_t Tile, const std::array<uint64_t, 3> &Block, ASTContext &Ctx) {
  return Analysis(Kernel, Loop, Buffer, Ctx).run(Tile, Block);
}
