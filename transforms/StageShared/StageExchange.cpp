//===- StageExchange.cpp - may a store go through shared memory? ---------===//
//
// A transpose's store `out[c * rows + r]` strides by `rows` across
// threadIdx.x: each warp touches 32 rows of memory. In a square block,
// the thread (x, y) can store instead the element of its partner (y, x),
// whose index is contiguous across threadIdx.x, once the partner has put
// its value in a shared tile. That is sound when the store happens once
// per thread, outside loops, under conditions the partner's indices
// decide, and when the buffer is only written there.
//
//===----------------------------------------------------------------------===//

#include "optiml/Analysis/Legality/BoundsGuard.h"
#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/GuardTerms.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"
#include "transforms/StageShared/StageSharedLegality.h"

#include "clang/AST/StmtCXX.h"

using namespace optiml;
using namespace clang;

namespace {

IndexAtom threadIdx(unsigned D) {
  return IndexAtom::of(BuiltinRef{BuiltinRef::ThreadIdx, D});
}

bool threadVarying(const IndexPolynomial &P) {
  return P.mentions(
      [](const IndexAtom &A) { return A.isBuiltin(BuiltinRef::ThreadIdx); });
}

/// The one store `Buffer[e] = ...` of the kernel, and nothing else.
llvm::Expected<const ArraySubscriptExpr *> onlyStore(const FunctionDecl &Kernel,
                                                     const ParmVarDecl &Buffer,
                                                     ASTContext &Ctx) {
  if (!BufferAccess(Kernel, Ctx).mayWrite(Buffer))
    return notApplicableAt(Buffer.getLocation(), Ctx,
                           "'" + Buffer.getName() +
                               "' is only read; its reads are staged in a "
                               "loop (a site '" +
                               Kernel.getName() + "/for#N/" + Buffer.getName() +
                               "')");
  const ArraySubscriptExpr *Store = nullptr;
  for (const DeclRefExpr *Use : usesOf(Buffer, *Kernel.getBody(), Ctx)) {
    const auto *A =
        parentOf(DynTypedNode::create(*Use), Ctx).get<ImplicitCastExpr>();
    const ArraySubscriptExpr *Sub =
        A ? parentOf(DynTypedNode::create(*A), Ctx).get<ArraySubscriptExpr>()
          : nullptr;
    const BinaryOperator *Assign =
        Sub ? parentOf(DynTypedNode::create(*Sub), Ctx).get<BinaryOperator>()
            : nullptr;
    if (!Assign || Assign->getOpcode() != BO_Assign ||
        Assign->getLHS()->IgnoreParens() != Sub)
      return notApplicableAt(Use->getBeginLoc(), Ctx,
                             "'" + Buffer.getName() +
                                 "' is used other than by one plain store "
                                 "'" +
                                 Buffer.getName() + "[index] = value'");
    if (Store)
      return notApplicableAt(Use->getBeginLoc(), Ctx,
                             "'" + Buffer.getName() +
                                 "' is stored to more than once");
    Store = Sub;
  }
  if (!Store)
    return notApplicableAt(Buffer.getLocation(), Ctx,
                           "the kernel does not store to '" + Buffer.getName() +
                               "'");
  return Store;
}

/// The top-level statement holding \p S; an error if a loop other than a
/// top-level coarsening copy loop (returned in \p Jam) is on the way.
llvm::Expected<const Stmt *> topLevel(const Stmt &S, const FunctionDecl &K,
                                      const ForStmt *&Jam, ASTContext &Ctx) {
  const Stmt *Child = &S;
  Jam = nullptr;
  for (const Stmt *P : enclosingStmts(S, Ctx)) {
    if (P == K.getBody()) {
      const Stmt *Loop = Child;
      if (const auto *A = dyn_cast<AttributedStmt>(Child)) // #pragma unroll
        Loop = A->getSubStmt();
      if (Jam && Jam != Loop)
        break;
      return Child;
    }
    if (isa<AttributedStmt>(P)) {
      Child = P;
      continue;
    }
    if (const auto *For = dyn_cast<ForStmt>(P);
        !Jam && For && copyLoopTrips(*For, Ctx)) {
      Jam = cast<ForStmt>(P);
      Child = P;
      continue;
    }
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(P))
      return illegalAt(S.getBeginLoc(), Ctx,
                       "the store is inside a loop or switch; the exchange "
                       "needs one store per thread");
    Child = P;
  }
  return illegalAt(S.getBeginLoc(), Ctx, "the store is not in the kernel");
}

} // namespace

llvm::Expected<ExchangePlan> StageSharedLegality::analyzeExchange(
    const FunctionDecl &Kernel, const ParmVarDecl &Buffer,
    const std::array<uint64_t, 3> &Block, ASTContext &Ctx) {
  ExchangePlan Plan;
  Plan.Kernel = &Kernel;
  Plan.Buffer = &Buffer;
  auto Elem = elementType(Buffer, Ctx);
  if (!Elem)
    return Elem.takeError();
  Plan.ElemType = *Elem;
  auto Store = onlyStore(Kernel, Buffer, Ctx);
  if (!Store)
    return Store.takeError();
  Plan.Store = *Store;
  const ForStmt *Jam = nullptr;
  auto Top = topLevel(**Store, Kernel, Jam, Ctx);
  if (!Top)
    return Top.takeError();
  Plan.Top = *Top;
  const Expr *Idx = Plan.Store->getIdx();
  auto Subst = [&](IndexPolynomial P) {
    for (unsigned D = 0; D < 3; ++D)
      P = P.substitute(IndexAtom::of(BuiltinRef{BuiltinRef::BlockDim, D}),
                       IndexPolynomial::constant(int64_t(Block[D])));
    return P;
  };
  auto P = IndexPolynomial::of(*Idx, Ctx);
  if (!P)
    return notApplicableAt(Idx->getBeginLoc(), Ctx,
                           llvm::toString(P.takeError()));
  IndexPolynomial Index = Subst(*P);
  auto X = Index.coefficient(threadIdx(0)), Y = Index.coefficient(threadIdx(1));
  if (!X || !Y || threadVarying(*X) || threadVarying(*Y) ||
      Index.mentions([](const IndexAtom &A) {
        return A.isBuiltin(BuiltinRef::ThreadIdx) && A.Dim == 2;
      }))
    return notApplicableAt(Idx->getBeginLoc(), Ctx,
                           "the index is not linear in threadIdx.x and "
                           "threadIdx.y");
  if (X->asConstant() == 1)
    return notApplicableAt(Idx->getBeginLoc(), Ctx,
                           "the store is already contiguous across "
                           "threadIdx.x");
  if (Y->asConstant() != 1)
    return notApplicableAt(Idx->getBeginLoc(), Ctx,
                           "the store is not contiguous across threadIdx.y "
                           "either, so exchanging does not coalesce it");
  // The row of the square: threadIdx.y, plus c * blockDim.y for copy c.
  IndexPolynomial Row = IndexPolynomial::atom(threadIdx(1));
  if (Jam) {
    const VarDecl *C = llvm::cantFail(analyzeLoop(*Jam, Ctx)).IV;
    Row = Row + IndexPolynomial::atom(IndexAtom::of(*C)) *
                    IndexPolynomial::constant(int64_t(Block[1]));
    Plan.Jam = Jam;
    Plan.RowText = "threadIdx.y + " + std::to_string(Block[1]) + " * " +
                   C->getName().str();
  } else {
    Plan.RowText = "threadIdx.y";
  }
  IndexPolynomial Col = IndexPolynomial::atom(threadIdx(0)) * *X;
  auto IsThread = [&](const IndexAtom &A) {
    return A.isBuiltin(BuiltinRef::ThreadIdx) ||
           (Jam && A.Var == llvm::cantFail(analyzeLoop(*Jam, Ctx)).IV);
  };
  IndexPolynomial Varying =
      Index.select([&](const auto &M) { return llvm::any_of(M, IsThread); });
  if (!(Varying - Col - Row).isZero())
    return notApplicableAt(Idx->getBeginLoc(), Ctx,
                           "the store's rows are not threadIdx.y (+ a "
                           "coarsening copy times blockDim.y)");
  // With coarsening copies in y, the block and its copies form the square.
  uint64_t Copies = Jam ? uint64_t(*copyLoopTrips(*Jam, Ctx)) : 1;
  if (Block[0] != Block[1] * Copies || Block[0] < 2 || Block[2] != 1)
    return illegalAt(Kernel.getLocation(), Ctx,
                     "exchanging stores needs a square 2-D block (or x = y "
                     "times the copies of a coarsening in y); this kernel "
                     "runs with (" +
                         llvm::Twine(Block[0]) + ", " + llvm::Twine(Block[1]) +
                         ", " + llvm::Twine(Block[2]) + ")" +
                         (Jam ? " and " + llvm::Twine(Copies) + " copies"
                              : llvm::Twine("")));
  Plan.Side = Block[0];
  if (Plan.Side * (Plan.Side + 1) *
          Ctx.getTypeSizeInChars(Buffer.getType()->getPointeeType())
              .getQuantity() >
      48 * 1024)
    return illegalAt(Kernel.getLocation(), Ctx,
                     "the tile would exceed 48 KiB of shared memory");

  Plan.IndexText = textOf(Idx->getSourceRange(), Ctx);

  // The index's locals, as the partner computes them.
  auto Partner = [&](const VarDecl &V,
                     const DeclRefExpr &Ref) -> llvm::Expected<bool> {
    if (isa<ParmVarDecl>(V) ||
        llvm::any_of(Plan.Partner, [&](auto &Pv) { return Pv.first == &V; }))
      return true;
    auto Q = IndexPolynomial::of(Ref, Ctx);
    if (!Q) {
      llvm::consumeError(Q.takeError());
      return false;
    }
    IndexPolynomial Def = Subst(*Q);
    IndexPolynomial Varies =
        Def.select([&](const auto &M) { return llvm::any_of(M, IsThread); });
    if (Varies.isZero())
      return true;
    IndexPolynomial Base = Def - Varies;
    if (Varies == IndexPolynomial::atom(threadIdx(0)))
      Plan.Partner.push_back({&V, Base.str() + " + " + Plan.RowText});
    else if (Varies.str() == Row.str())
      Plan.Partner.push_back({&V, Base.str() + " + threadIdx.x"});
    else
      return false;
    return true;
  };
  auto Check = [&](const Expr &E, llvm::StringRef What) -> llvm::Error {
    for (const DeclRefExpr *R : nodesOf<DeclRefExpr>(&E))
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl())) {
        auto Ok = Partner(*V, *R);
        if (!Ok)
          return Ok.takeError();
        if (!*Ok)
          return illegalAt(R->getBeginLoc(), Ctx,
                           What + " reads '" + V->getName() +
                               "', which the partner thread cannot "
                               "recompute");
      }
    return llvm::Error::success();
  };
  if (llvm::Error E = Check(*Idx, "the index"))
    return E;
  for (const GuardTerm &T : guardTermsAt(*Plan.Store, Kernel, Ctx)) {
    if (BoundsGuard::touchesMemory(T.Cond))
      return illegalAt(T.Cond->getBeginLoc(), Ctx,
                       "the guard '" + T.str(Ctx) +
                           "' reads memory; the partner cannot re-check it");
    if (llvm::Error E = Check(*T.Cond, "the guard '" + T.str(Ctx) + "'"))
      return E;
    Plan.Guards.push_back(T.str(Ctx));
  }
  auto Fold = foldEarlyReturns(Kernel, *Plan.Top, Ctx);
  if (!Fold)
    return Fold.takeError();
  Plan.Fold = std::move(*Fold);
  return Plan;
}
