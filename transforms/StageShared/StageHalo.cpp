//===- StageHalo.cpp - may a stencil's reads go through shared memory? ---===//
//
// A five-point stencil reads `in[i]`, `in[i - 1]`, `in[i + 1]`, `in[i - nx]`
// and `in[i + nx]`: each element is read by five threads. The block's
// elements and a halo around them can be loaded once into a tile, each
// read becoming `tile[threadIdx.y + dy + 1][threadIdx.x + dx + 1]`.
//
// The tile element at column c, row r is loaded the way the first read
// computes its index, for the thread whose coordinates are shifted by
// (c + MinX, r + MinY): the coordinates x = bx + threadIdx.x and y = by +
// threadIdx.y are redeclared for that thread, and locals computed from
// them (i = y * nx + x) are recomputed from their own text. Because the
// index is x + S * y + uniform terms, the element a read at offset
// (dx, dy) finds in the tile is then exactly the one it read before, even
// where x + dx leaves the row.
//
// Which elements to load is the question: every element a thread reads
// must be loaded, and nothing outside the memory the kernel reads may be.
// The guards around each read bound its coordinates (x >= 0 as a thread
// coordinate, x != 0 where the border returned, x < nx); shifted by the
// read's offset they give the columns and rows that read reaches. The tile
// loads the smallest box that contains them all, and the box is
// described by bounds some read reaches, so a buffer read at both ends of
// each range is read in between.
//
//===----------------------------------------------------------------------===//

#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/GuardBounds.h"
#include "optiml/Analysis/Legality/GuardTerms.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"
#include "transforms/StageShared/StageSharedLegality.h"

#include "clang/AST/StmtCXX.h"

using namespace optiml;
using namespace clang;

namespace {

/// The widest halo staged: past 4 the tile's extra loads outweigh the
/// reuse for the usual 16- and 32-wide blocks.
constexpr int64_t MaxHalo = 4;

IndexAtom threadIdx(unsigned D) {
  return IndexAtom::of(BuiltinRef{BuiltinRef::ThreadIdx, D});
}

/// "nx - 1" rather than the polynomial's "-1 + nx".
std::string boundText(const IndexPolynomial &P) {
  IndexPolynomial Vars =
      P.select([](const IndexPolynomial::Monomial &M) { return !M.empty(); });
  int64_t C = *(P - Vars).asConstant();
  if (Vars.isZero())
    return std::to_string(C);
  std::string Out = Vars.str();
  if (C)
    Out += (C < 0 ? " - " : " + ") + std::to_string(C < 0 ? -C : C);
  return Out;
}

/// `Base + optiml_c - 1`: a coordinate of the thread that owns a tile
/// element.
std::string shifted(const IndexPolynomial &Base, llvm::StringRef Var,
                    int64_t Min) {
  std::string Out =
      Base.isZero() ? Var.str() : boundText(Base) + " + " + Var.str();
  if (Min)
    Out += (Min < 0 ? " - " : " + ") + std::to_string(Min < 0 ? -Min : Min);
  return Out;
}

/// The subscript \p Use is the base of, or null.
const ArraySubscriptExpr *subscriptOf(const DeclRefExpr &Use, ASTContext &Ctx) {
  const auto *Cast =
      parentOf(DynTypedNode::create(Use), Ctx).get<ImplicitCastExpr>();
  const auto *Sub =
      Cast
          ? parentOf(DynTypedNode::create(*Cast), Ctx).get<ArraySubscriptExpr>()
          : nullptr;
  return Sub && Sub->getBase()->IgnoreParenImpCasts() == &Use ? Sub : nullptr;
}

class HaloAnalysis {
public:
  HaloAnalysis(const FunctionDecl &Kernel, const ParmVarDecl &Buffer,
               ASTContext &Ctx)
      : Kernel(Kernel), Buffer(Buffer), Ctx(Ctx) {}

  llvm::Expected<HaloPlan> run(const std::array<uint64_t, 3> &Block);

private:
  llvm::Error checkBuffer();
  llvm::Error collectReads();
  llvm::Error findCoordinates();
  llvm::Error findOffsets();
  llvm::Error redeclare();
  llvm::Error boundLoads();
  llvm::Error place();
  llvm::Error checkSize();

  /// The polynomial of \p E with blockDim replaced by the block's sizes
  /// and threadIdx of a dimension of size 1 by 0; with \p KeepCoords the
  /// coordinates stay atoms.
  llvm::Expected<IndexPolynomial> poly(const Expr &E, bool KeepCoords);
  bool isCoord(const VarDecl &V) const {
    return &V == Coord[0] || &V == Coord[1];
  }
  bool threadVarying(const IndexPolynomial &P) const {
    return P.mentions([&](const IndexAtom &A) {
      return A.isBuiltin(BuiltinRef::ThreadIdx) || (A.Var && isCoord(*A.Var));
    });
  }
  /// Locals \p E reads, directly or through their initializers.
  llvm::Error closure(const Expr &E);
  /// The smallest (\p Up false) or largest bound on coordinate \p D that
  /// every read stays within.
  std::optional<IndexPolynomial>
  hull(unsigned D, bool Up, const std::vector<VarBounds> &Bounds) const;
  bool inScopeAtAnchor(const IndexPolynomial &P) const;
  std::string quoted(const Stmt &S) const {
    return "'" + textOf(S.getSourceRange(), Ctx) + "'";
  }

  const FunctionDecl &Kernel;
  const ParmVarDecl &Buffer;
  ASTContext &Ctx;
  HaloPlan Plan;

  const VarDecl *Coord[2] = {nullptr, nullptr};
  IndexPolynomial Base[2]; ///< Coordinate d is Base[d] + threadIdx.d.
  std::optional<IndexPolynomial> RowStride;
  std::vector<const VarDecl *> Locals; ///< The index's locals, in order.
};

} // namespace

llvm::Expected<IndexPolynomial> HaloAnalysis::poly(const Expr &E,
                                                   bool KeepCoords) {
  auto P = KeepCoords
               ? IndexPolynomial::of(
                     E, Ctx, [&](const VarDecl &V) { return !isCoord(V); })
               : IndexPolynomial::of(E, Ctx);
  if (!P)
    return P.takeError();
  IndexPolynomial R = *P;
  for (unsigned D = 0; D < 3; ++D) {
    R = R.substitute(IndexAtom::of(BuiltinRef{BuiltinRef::BlockDim, D}),
                     IndexPolynomial::constant(int64_t(Plan.Block[D])));
    if (Plan.Block[D] == 1)
      R = R.substitute(threadIdx(D), IndexPolynomial::constant(0));
  }
  return R;
}

llvm::Error HaloAnalysis::checkBuffer() {
  Plan.Buffer = &Buffer;
  auto Elem = StageSharedLegality::elementType(Buffer, Ctx);
  if (!Elem)
    return Elem.takeError();
  Plan.ElemType = *Elem;
  if (BufferAccess(Kernel, Ctx).mayWrite(Buffer))
    return illegalAt(Buffer.getLocation(), Ctx,
                     "the kernel may write through '" + Buffer.getName() +
                         "', so a shared-memory copy could go stale");
  return llvm::Error::success();
}

/// Every use is a plain read `in[index]` outside loops.
llvm::Error HaloAnalysis::collectReads() {
  for (const DeclRefExpr *Use : usesOf(Buffer, *Kernel.getBody(), Ctx)) {
    const ArraySubscriptExpr *A = subscriptOf(*Use, Ctx);
    if (!A)
      return notApplicableAt(Use->getBeginLoc(), Ctx,
                             "'" + Buffer.getName() +
                                 "' is used other than as '" +
                                 Buffer.getName() + "[index]'");
    if (A->getBeginLoc().isMacroID())
      return notApplicableAt(A->getBeginLoc(), Ctx,
                             "the read is written inside a macro");
    DynTypedNode Node = DynTypedNode::create(*A);
    while (true) {
      Node = parentOf(Node, Ctx);
      const Stmt *P = Node.get<Stmt>();
      if (Node.getNodeKind().isNone() || P == Kernel.getBody())
        break;
      if (P && isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(P))
        return notApplicableAt(
            A->getBeginLoc(), Ctx,
            "the read " + quoted(*A) +
                " is inside a loop; stage it in the loop (a site '" +
                Kernel.getName() + "/for#N/" + Buffer.getName() + "')");
    }
    Plan.Reads.push_back({A, 0, 0});
  }
  if (Plan.Reads.size() < 2)
    return notApplicableAt(Buffer.getLocation(), Ctx,
                           "each thread reads '" + Buffer.getName() +
                               "' once; there are no neighbours to share");
  return llvm::Error::success();
}

llvm::Error HaloAnalysis::closure(const Expr &E) {
  for (const DeclRefExpr *Ref : nodesOf<DeclRefExpr>(&E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if (!V || isa<ParmVarDecl>(V) || llvm::is_contained(Locals, V))
      continue;
    if (!V->isLocalVarDecl() || !V->getInit() ||
        isReassigned(*V, *Kernel.getBody(), Ctx))
      return notApplicableAt(Ref->getBeginLoc(), Ctx,
                             "the index reads '" + V->getName() +
                                 "', which is not a local defined once");
    Locals.push_back(V);
    if (llvm::Error Err = closure(*V->getInit()))
      return Err;
  }
  return llvm::Error::success();
}

/// The coordinates: locals `x = base + threadIdx.x` (and y) the index is
/// computed from.
llvm::Error HaloAnalysis::findCoordinates() {
  const ArraySubscriptExpr &First = *Plan.Reads.front().Access;
  auto NA = [&](const llvm::Twine &Why) {
    return notApplicableAt(First.getBeginLoc(), Ctx,
                           quoted(First) + ": " + Why);
  };
  if (Plan.Block[2] != 1)
    return NA("halo tiles are staged for 1-D and 2-D blocks only");
  if (llvm::Error E = closure(*First.getIdx()))
    return E;
  llvm::sort(Locals, [](const VarDecl *A, const VarDecl *B) {
    return A->getBeginLoc() < B->getBeginLoc();
  });
  for (const VarDecl *V : Locals) {
    auto P = poly(*V->getInit(), false);
    if (!P)
      return NA(llvm::toString(P.takeError()));
    for (unsigned D = 0; D < 2; ++D) {
      bool Direct = llvm::any_of(nodesOf<Expr>(V->getInit()), [&](auto *E) {
        auto B = asBuiltinRef(E);
        return B && B->Which == BuiltinRef::ThreadIdx && B->Dim == D;
      });
      IndexPolynomial Rest = *P - IndexPolynomial::atom(threadIdx(D));
      if (Direct && !Coord[D] && !threadVarying(Rest) &&
          !Rest.mentions([](const IndexAtom &A) {
            return A.isBuiltin(BuiltinRef::ThreadIdx);
          })) {
        Coord[D] = V;
        Base[D] = Rest;
      }
    }
  }
  auto Full = poly(*First.getIdx(), false);
  if (!Full)
    return NA(llvm::toString(Full.takeError()));
  auto Moves = [&](unsigned D) {
    return Full->mentions(
        [&](const IndexAtom &A) { return A == threadIdx(D); });
  };
  if (!Moves(0))
    return NA("the reads do not move with threadIdx.x");
  if (!Coord[0] || (Moves(1) && !Coord[1]))
    return NA("the index uses threadIdx outside a coordinate local "
              "('int x = blockIdx.x * blockDim.x + threadIdx.x;')");
  if (Plan.Block[1] > 1 && !Moves(1))
    return NA("in a 2-D block the reads do not move with threadIdx.y; the "
              "tile's rows would repeat each other");
  Plan.TwoD = Coord[1] != nullptr;
  return llvm::Error::success();
}

/// Each read is x + S * y + R with the same S; R differs from the first
/// read's by dx + dy * S.
llvm::Error HaloAnalysis::findOffsets() {
  std::optional<IndexPolynomial> R0;
  for (HaloPlan::Read &Rd : Plan.Reads) {
    const ArraySubscriptExpr &A = *Rd.Access;
    auto NA = [&](const llvm::Twine &Why) {
      return notApplicableAt(A.getBeginLoc(), Ctx, quoted(A) + ": " + Why);
    };
    auto P = poly(*A.getIdx(), true);
    if (!P)
      return NA(llvm::toString(P.takeError()));
    IndexAtom X = IndexAtom::of(*Coord[0]);
    auto CX = P->coefficient(X);
    if (!CX || CX->asConstant() != 1)
      return NA("the index is not '" + Coord[0]->getName() +
                "' plus terms "
                "that do not depend on it");
    IndexPolynomial R = *P - IndexPolynomial::atom(X);
    if (Plan.TwoD) {
      IndexAtom Y = IndexAtom::of(*Coord[1]);
      auto S = R.coefficient(Y);
      if (!S || S->isZero() || threadVarying(*S))
        return NA("the index does not stride by a fixed amount per '" +
                  Coord[1]->getName() + "'");
      if (RowStride && !(*RowStride == *S))
        return NA("the reads stride by different amounts per row");
      RowStride = *S;
      R = R - *S * IndexPolynomial::atom(Y);
    }
    if (threadVarying(R))
      return NA("the index also moves with the thread in another way");
    if (!R0) {
      R0 = R;
      continue;
    }
    IndexPolynomial Diff = R - *R0;
    bool Found = false;
    for (int64_t DY = Plan.TwoD ? -MaxHalo : 0;
         !Found && DY <= (Plan.TwoD ? MaxHalo : 0); ++DY) {
      IndexPolynomial Rest =
          Plan.TwoD ? Diff - *RowStride * IndexPolynomial::constant(DY) : Diff;
      auto DX = Rest.asConstant();
      if (DX && *DX >= -MaxHalo && *DX <= MaxHalo) {
        Rd.DX = *DX, Rd.DY = DY;
        Found = true;
      }
    }
    // A constant row stride could make two offsets spell the same index.
    if (Found && RowStride && RowStride->asConstant() &&
        std::abs(*RowStride->asConstant()) <= 2 * MaxHalo)
      return NA("the row stride is too small to tell rows from columns");
    if (!Found)
      return NA("the read is not within " + llvm::Twine(MaxHalo) +
                " elements of the first read '" +
                textOf(Plan.Reads.front().Access->getSourceRange(), Ctx) +
                "' in each direction");
  }
  for (const HaloPlan::Read &Rd : Plan.Reads) {
    Plan.MinX = std::min(Plan.MinX, Rd.DX),
    Plan.MaxX = std::max(Plan.MaxX, Rd.DX);
    Plan.MinY = std::min(Plan.MinY, Rd.DY),
    Plan.MaxY = std::max(Plan.MaxY, Rd.DY);
  }
  if (Plan.MinX == Plan.MaxX && Plan.MinY == Plan.MaxY)
    return notApplicableAt(Buffer.getLocation(), Ctx,
                           "every read of '" + Buffer.getName() +
                               "' is of the thread's own element; there "
                               "are no neighbours to share");
  Plan.Width = Plan.Block[0] + uint64_t(Plan.MaxX - Plan.MinX);
  Plan.Height = Plan.TwoD ? Plan.Block[1] + uint64_t(Plan.MaxY - Plan.MinY) : 1;
  return llvm::Error::success();
}

/// The loading thread's coordinates and the locals computed from them.
llvm::Error HaloAnalysis::redeclare() {
  const char *Var[2] = {"optiml_c", "optiml_r"};
  int64_t Min[2] = {Plan.MinX, Plan.MinY};
  for (const VarDecl *V : Locals) {
    unsigned D = V == Coord[0] ? 0 : 1;
    if (isCoord(*V)) {
      Plan.Redeclared.push_back({V, shifted(Base[D], Var[D], Min[D])});
      continue;
    }
    auto P = poly(*V->getInit(), true);
    if (!P)
      return P.takeError();
    if (!threadVarying(*P))
      continue;
    for (const Expr *E : nodesOf<Expr>(V->getInit()))
      if (auto B = asBuiltinRef(E); B && B->Which == BuiltinRef::ThreadIdx)
        return notApplicableAt(E->getBeginLoc(), Ctx,
                               "'" + V->getName() +
                                   "' reads threadIdx besides the "
                                   "coordinates; the loading thread "
                                   "cannot recompute it");
    Plan.Redeclared.push_back({V, textOf(V->getInit()->getSourceRange(), Ctx)});
  }
  Plan.IndexText =
      textOf(Plan.Reads.front().Access->getIdx()->getSourceRange(), Ctx);
  return llvm::Error::success();
}

bool HaloAnalysis::inScopeAtAnchor(const IndexPolynomial &P) const {
  const auto *Body = cast<CompoundStmt>(Kernel.getBody());
  return !P.mentions([&](const IndexAtom &A) {
    if (!A.Var)
      return A.isBuiltin(BuiltinRef::ThreadIdx);
    if (isa<ParmVarDecl>(A.Var))
      return false;
    // A local declared at the top of the body before the tile's load.
    return !llvm::any_of(Body->body(), [&](const Stmt *S) {
      const auto *DS = dyn_cast<DeclStmt>(S);
      return DS && llvm::is_contained(DS->decls(), A.Var) &&
             DS->getEndLoc() < Plan.Anchor->getBeginLoc();
    });
  });
}

std::optional<IndexPolynomial>
HaloAnalysis::hull(unsigned D, bool Up,
                   const std::vector<VarBounds> &Bounds) const {
  auto Offset = [&](size_t K) {
    return IndexPolynomial::constant(D == 0 ? Plan.Reads[K].DX
                                            : Plan.Reads[K].DY);
  };
  std::optional<IndexPolynomial> Best;
  for (size_t K = 0; K < Bounds.size(); ++K)
    for (const IndexPolynomial &B :
         Up ? Bounds[K].uppers() : Bounds[K].lowers()) {
      IndexPolynomial C = B + Offset(K);
      if (!inScopeAtAnchor(C))
        continue;
      bool Covers = true;
      for (size_t J = 0; J < Bounds.size() && Covers; ++J)
        Covers = Up ? Bounds[J].provesAtMost(C - Offset(J))
                    : Bounds[J].provesAtLeast(C - Offset(J));
      if (!Covers)
        continue;
      auto Gap = Best ? (C - *Best).asConstant() : std::nullopt;
      if (!Best || (Gap && (Up ? *Gap < 0 : *Gap > 0)))
        Best = C;
    }
  return Best;
}

/// The box of elements to load: per coordinate, bounds every read stays
/// within once shifted by its offset.
llvm::Error HaloAnalysis::boundLoads() {
  for (unsigned D = 0; D < (Plan.TwoD ? 2u : 1u); ++D) {
    const VarDecl &V = *Coord[D];
    // A coordinate made of blockIdx and threadIdx alone is at least 0.
    bool Natural =
        !Base[D].hasNegativeTerm() && !Base[D].mentions([](const IndexAtom &A) {
          return !A.isBuiltin(BuiltinRef::BlockIdx);
        });
    auto Poly = [&](const Expr &E) { return poly(E, true); };
    std::vector<VarBounds> Bounds;
    for (const HaloPlan::Read &Rd : Plan.Reads)
      Bounds.push_back(VarBounds::from(
          V, guardTermsAt(*Rd.Access, Kernel, Ctx), Natural, Poly,
          [&](const IndexPolynomial &B) { return !threadVarying(B); }));
    auto Lo = hull(D, false, Bounds), Hi = hull(D, true, Bounds);
    if (!Lo || !Hi)
      return illegalAt(Plan.Reads.front().Access->getBeginLoc(), Ctx,
                       "the guards do not bound '" + V.getName() + "' from " +
                           (Lo ? "above" : "below") + " at every read of '" +
                           Buffer.getName() +
                           "', so the tile's halo could load past the "
                           "buffer");
    Plan.LoadGuards.push_back(V.getName().str() + " >= " + boundText(*Lo));
    Plan.LoadGuards.push_back(V.getName().str() + " < " +
                              boundText(*Hi + IndexPolynomial::constant(1)));
  }
  return llvm::Error::success();
}

/// The load goes before the first statement that reads the buffer; early
/// returns before it become guards; everything the load reads must be
/// declared by then.
llvm::Error HaloAnalysis::place() {
  const auto *Body = cast<CompoundStmt>(Kernel.getBody());
  const ArraySubscriptExpr &First = *Plan.Reads.front().Access;
  for (const Stmt *S : Body->body())
    if (S->getSourceRange().fullyContains(First.getSourceRange())) {
      Plan.Anchor = S;
      break;
    }
  auto Fold = foldEarlyReturns(Kernel, *Plan.Anchor, Ctx,
                               /*BarriersInAnchor=*/false);
  if (!Fold)
    return Fold.takeError();
  Plan.Fold = std::move(*Fold);
  if (!Plan.Fold.Live.empty() && isa<DeclStmt>(Plan.Anchor))
    return illegalAt(Plan.Anchor->getBeginLoc(), Ctx,
                     "the first read is in a declaration after an early "
                     "return; the return cannot become a guard around it");
  for (const VarDecl *V : Locals)
    if (!inScopeAtAnchor(IndexPolynomial::atom(IndexAtom::of(*V))))
      return notApplicableAt(V->getLocation(), Ctx,
                             "'" + V->getName() +
                                 "' is not declared at the top of the "
                                 "kernel before the first read of '" +
                                 Buffer.getName() + "'");
  // Threads may return after the load; a later barrier would miss them.
  const SourceManager &SM = Ctx.getSourceManager();
  for (const ReturnStmt *R : nodesOf<ReturnStmt>(Body))
    if (SM.isBeforeInTranslationUnit(Plan.Anchor->getBeginLoc(),
                                     R->getBeginLoc()))
      for (const CallExpr *C : nodesOf<CallExpr>(Body))
        if (isCooperativeCall(*C) &&
            SM.isBeforeInTranslationUnit(R->getBeginLoc(), C->getBeginLoc()))
          return illegalAt(R->getBeginLoc(), Ctx,
                           "threads returning here would miss a later "
                           "barrier once the tile's load comes first");
  return llvm::Error::success();
}

llvm::Error HaloAnalysis::checkSize() {
  uint64_t Elem =
      Ctx.getTypeSizeInChars(Buffer.getType()->getPointeeType()).getQuantity();
  return StageSharedLegality::checkTileFits(Kernel, Buffer,
                                            Plan.Width * Plan.Height * Elem,
                                            Kernel.getLocation(), Ctx);
}

llvm::Expected<HaloPlan>
HaloAnalysis::run(const std::array<uint64_t, 3> &Block) {
  Plan.Kernel = &Kernel;
  Plan.Block = Block;
  for (auto Step : {&HaloAnalysis::checkBuffer, &HaloAnalysis::collectReads,
                    &HaloAnalysis::findCoordinates, &HaloAnalysis::findOffsets,
                    &HaloAnalysis::redeclare, &HaloAnalysis::place,
                    &HaloAnalysis::boundLoads, &HaloAnalysis::checkSize})
    if (llvm::Error E = (this->*Step)())
      return E;
  return Plan;
}

llvm::Expected<HaloPlan> StageSharedLegality::analyzeHalo(
    const FunctionDecl &Kernel, const ParmVarDecl &Buffer,
    const std::array<uint64_t, 3> &Block, ASTContext &Ctx) {
  return HaloAnalysis(Kernel, Buffer, Ctx).run(Block);
}
