//===- MatmulNest.cpp - a kernel that computes one product element -------===//

#include "transforms/TensorCores/MatmulNest.h"
#include "optiml/Analysis/Legality/BoundsGuard.h"
#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/GuardBounds.h"
#include "optiml/Analysis/Legality/GuardTerms.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LaunchShape.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/ThreadGeometry.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

namespace {

/// The pointer parameter \p A subscripts, or null.
const ParmVarDecl *bufferOf(const ArraySubscriptExpr &A) {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(referencedVar(A.getBase()));
  return P && P->getType()->isPointerType() ? P : nullptr;
}

/// "float", "__half" or "__nv_bfloat16" for those element types; else
/// empty.
std::string elemTypeName(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return "float";
  if (const auto *R = T->getAsRecordDecl()) {
    if (R->getName() == "__half")
      return "__half";
    if (R->getName() == "__nv_bfloat16")
      return "__nv_bfloat16";
  }
  return "";
}

bool mentionsVar(const Stmt *S, const VarDecl *V) {
  bool Found = false;
  forEachNode(S, [&](const Stmt *N) {
    const auto *R = dyn_cast<DeclRefExpr>(N);
    Found |= R && R->getDecl() == V;
  });
  return Found;
}

std::string text(const Stmt &S, const ASTContext &Ctx) {
  return textOf(S.getSourceRange(), Ctx);
}

/// The operands of a chain of `*`, parentheses and implicit casts aside.
void factorsOf(const Expr *E, std::vector<const Expr *> &Out) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (B && B->getOpcode() == BO_Mul) {
    factorsOf(B->getLHS(), Out);
    factorsOf(B->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

/// The element \p F loads, through conversions to float: casts to float,
/// `operator float()`, __half2float, __bfloat162float.
const ArraySubscriptExpr *loadOf(const Expr *F) {
  while (true) {
    F = F->IgnoreParens();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(F))
      return A;
    if (const auto *T = dyn_cast<MaterializeTemporaryExpr>(F)) {
      F = T->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(F);
        C && C->getNumArgs() == 1 &&
        C->getConstructor()->isCopyOrMoveConstructor()) {
      F = C->getArg(0); // A __half passed by value.
      continue;
    }
    if (const auto *C = dyn_cast<CastExpr>(F)) {
      bool Keeps =
          C->getCastKind() == CK_LValueToRValue || C->getCastKind() == CK_NoOp;
      if (!Keeps && !C->getType().getCanonicalType()->isSpecificBuiltinType(
                        BuiltinType::Float))
        return nullptr; // A conversion that may change the value.
      F = C->getSubExpr();
      continue;
    }
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(F);
        M && isa<CXXConversionDecl>(M->getMethodDecl())) {
      F = M->getImplicitObjectArgument();
      continue;
    }
    const auto *Call = dyn_cast<CallExpr>(F);
    const FunctionDecl *Fn = Call ? Call->getDirectCallee() : nullptr;
    if (Fn && Fn->getIdentifier() && Call->getNumArgs() == 1 &&
        (Fn->getName() == "__half2float" ||
         Fn->getName() == "__bfloat162float")) {
      F = Call->getArg(0);
      continue;
    }
    return nullptr;
  }
}

class NestAnalysis {
public:
  NestAnalysis(const FunctionDecl &Kernel, llvm::StringRef Site,
               ASTContext &Ctx)
      : Kernel(Kernel), Site(Site), Ctx(Ctx) {}

  llvm::Expected<MatmulNest> run(const Stmt &Loop);

private:
  llvm::Error checkLoop(const Stmt &Loop);
  llvm::Error checkAccumulation();
  llvm::Error checkAccumulator(const Expr &Target);
  llvm::Error checkFactors(const Expr &Summand);
  llvm::Error checkCoordinates();
  llvm::Error checkRange();
  llvm::Error classifyLoads();
  llvm::Error checkGuards();
  llvm::Error checkStores();
  llvm::Error checkOutput(const ParmVarDecl &Out, const Expr &Index);
  llvm::Error checkLaunchedApart(const clang::ParmVarDecl &Out);
  llvm::Error checkReturns();
  llvm::Error checkReads(const Expr &E, llvm::ArrayRef<const VarDecl *> Allowed,
                         const llvm::Twine &What);
  llvm::Expected<IndexPolynomial> poly(const Expr &E);
  bool isCoord(const VarDecl *V) const {
    return V && (V == Nest.Coord[0] || V == Nest.Coord[1]);
  }

  const FunctionDecl &Kernel;
  llvm::StringRef Site;
  ASTContext &Ctx;
  MatmulNest Nest;
  const Expr *Acc = nullptr;                     ///< The sum's target.
  std::vector<const ArraySubscriptExpr *> Loads; ///< The two moving loads.
  std::vector<std::string> Scale;                ///< The other factors.
};

/// Polynomials over variables as written: every variable is an atom, so
/// that the coordinates, the loop variable and parameters stay apart.
llvm::Expected<IndexPolynomial> NestAnalysis::poly(const Expr &E) {
  return IndexPolynomial::of(E, Ctx, [](const VarDecl &) { return false; });
}

/// Success when \p E reads only \p Allowed, parameters the kernel never
/// changes and constants: values every thread of the rewrite can compute
/// for any element.
llvm::Error NestAnalysis::checkReads(const Expr &E,
                                     llvm::ArrayRef<const VarDecl *> Allowed,
                                     const llvm::Twine &What) {
  if (BoundsGuard::touchesMemory(&E))
    return notApplicableAt(E.getBeginLoc(), Ctx,
                           What + " reads memory or calls a function");
  const Stmt *Bad = nullptr;
  std::string Why;
  forEachNode(&E, [&](const Stmt *N) {
    if (Bad)
      return;
    if (isBuiltinRefNode(N)) {
      Bad = N, Why = "reads " + asBuiltinRef(cast<Expr>(N))->str();
      return;
    }
    const auto *R = dyn_cast<DeclRefExpr>(N);
    const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    if (!V || llvm::is_contained(Allowed, V) ||
        V->isUsableInConstantExpressions(Ctx))
      return;
    if (isa<ParmVarDecl>(V) && !isReassigned(*V, *Nest.Body, Ctx))
      return;
    Bad = N;
    Why = "reads '" + V->getName().str() + "', " +
          (isCoord(V) ? "a coordinate of the thread, where it must be the "
                        "same for every output"
                      : "which is not a coordinate, the loop variable, an "
                        "unchanged parameter or a constant");
  });
  if (!Bad)
    return llvm::Error::success();
  return notApplicableAt(Bad->getBeginLoc(), Ctx, What + " " + Why);
}

llvm::Error NestAnalysis::checkLoop(const Stmt &Loop) {
  auto For = rewritableFor(Loop, Site,
                           "tensor-cores takes the for-loop of a sum over k",
                           "its text cannot be replaced", Ctx);
  if (!For)
    return For.takeError();
  Nest.Loop = *For;
  auto L = analyzeLoop(**For, Ctx);
  if (!L)
    return L.takeError();
  Nest.Bounds = *L;
  if (L->Step != 1 || (L->Cmp != BO_LT && L->Cmp != BO_LE))
    return notApplicableAt((*For)->getBeginLoc(), Ctx,
                           "the loop does not count up by 1 to a bound "
                           "'" +
                               L->IV->getName() +
                               " < N' (or <=), so its range is not one "
                               "run of k");
  if (const auto *A =
          parentOf(DynTypedNode::create(**For), Ctx).get<AttributedStmt>())
    return notApplicableAt(A->getAttrs().front()->getLocation(), Ctx,
                           "'" + Site +
                               "' has a loop pragma or attribute, which "
                               "would be left on the statement that "
                               "replaces the loop");
  for (const Stmt *P : enclosingStmts(Loop, Ctx)) {
    if (P == Nest.Body)
      break;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      return notApplicableAt(
          P->getBeginLoc(), Ctx,
          "the loop is nested in this loop, so each output is not one sum "
          "over '" +
              L->IV->getName() + "'");
  }
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange Range(SM.getFileLoc((*For)->getBeginLoc()),
                    SM.getFileLoc((*For)->getEndLoc()));
  for (const DeclRefExpr *U : usesOf(*L->IV, *Nest.Body, Ctx))
    // Where it is written: a use in a macro's argument is in the loop.
    if (!Range.fullyContains(SM.getFileLoc(U->getLocation())))
      return notApplicableAt(U->getBeginLoc(), Ctx,
                             "'" + L->IV->getName() +
                                 "' is used outside the loop, where the "
                                 "rewrite no longer counts it");
  return llvm::Error::success();
}

/// The run of k is the same for every output: every tile loads it whole.
llvm::Error NestAnalysis::checkRange() {
  std::vector<const VarDecl *> None;
  if (llvm::Error E = checkReads(*Nest.Bounds.Lower, None, "the loop's start"))
    return E;
  return checkReads(*Nest.Bounds.Bound, None, "the loop's bound");
}

llvm::Error NestAnalysis::checkAccumulation() {
  const Stmt *S = Nest.Loop->getBody();
  if (const auto *C = dyn_cast<CompoundStmt>(S); C && C->size() == 1)
    S = C->body_front();
  const auto *B = dyn_cast<BinaryOperator>(S);
  const Expr *Summand = nullptr;
  if (B && B->getOpcode() == BO_AddAssign)
    Summand = B->getRHS();
  if (B && B->getOpcode() == BO_Assign)
    if (const auto *Add =
            dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
        Add && Add->getOpcode() == BO_Add &&
        text(*Add->getLHS()->IgnoreParenImpCasts(), Ctx) ==
            text(*B->getLHS(), Ctx))
      Summand = Add->getRHS();
  if (!Summand)
    return notApplicableAt(S->getBeginLoc(), Ctx,
                           "the loop's body is not one accumulation "
                           "'sum += a[...] * b[...]'");
  if (llvm::Error E = checkAccumulator(*B->getLHS()))
    return E;
  return checkFactors(*Summand);
}

/// The sum goes to a local float declared before the loop, or to an
/// element of a buffer (the output, checkStores says).
llvm::Error NestAnalysis::checkAccumulator(const Expr &Target) {
  Acc = &Target;
  const Expr *T = Target.IgnoreParens();
  const VarDecl *V = referencedVar(T);
  bool Local = V && V->isLocalVarDecl() && !V->isStaticLocal() &&
               !Nest.Loop->getSourceRange().fullyContains(V->getLocation());
  const auto *Elem = dyn_cast<ArraySubscriptExpr>(T);
  if (!Local && !(Elem && bufferOf(*Elem)))
    return notApplicableAt(T->getBeginLoc(), Ctx,
                           "the sum goes to '" + text(*T, Ctx) +
                               "', neither a local variable declared before "
                               "the loop nor an element of a buffer");
  if (elemTypeName(T->getType()) != "float")
    return notApplicableAt(T->getBeginLoc(), Ctx,
                           "the sum '" + text(*T, Ctx) + "' is a '" +
                               T->getType().getAsString() +
                               "'; the tensor cores accumulate in float");
  return llvm::Error::success();
}

llvm::Error NestAnalysis::checkFactors(const Expr &Summand) {
  std::vector<const Expr *> Factors;
  factorsOf(&Summand, Factors);
  const VarDecl *IV = Nest.Bounds.IV;
  for (const Expr *F : Factors) {
    if (!mentionsVar(F, IV)) {
      if (BoundsGuard::touchesMemory(F) ||
          !isLoopInvariant(*F, *Nest.Loop, Ctx))
        return notApplicableAt(F->getBeginLoc(), Ctx,
                               "the factor '" + text(*F, Ctx) +
                                   "' reads memory or changes in the loop, "
                                   "so it cannot be taken out of the sum");
      Scale.push_back(text(*F, Ctx));
      continue;
    }
    const ArraySubscriptExpr *A = loadOf(F);
    if (!A || !bufferOf(*A))
      return notApplicableAt(F->getBeginLoc(), Ctx,
                             "the factor '" + text(*F, Ctx) +
                                 "' changes with '" + IV->getName() +
                                 "' but is not an element of a buffer "
                                 "parameter");
    Loads.push_back(A);
  }
  if (Loads.size() != 2)
    return notApplicableAt(Summand.getBeginLoc(), Ctx,
                           "the summand '" + text(Summand, Ctx) + "' reads " +
                               llvm::Twine(Loads.size()) +
                               (Loads.size() == 1 ? " element that moves"
                                                  : " elements that move") +
                               " with '" + IV->getName() +
                               "'; a matrix product reads two");
  std::string Sum = text(*Acc, Ctx) + " += ";
  for (const std::string &F : Scale)
    Sum += F + " * ";
  Nest.Accumulate = Sum + "optiml_sum";
  return llvm::Error::success();
}

/// The dimension whose threadIdx \p V's initializer reads.
static std::optional<unsigned> dimOf(const VarDecl &V) {
  std::optional<unsigned> Dim;
  forEachNode(V.getInit(), [&](const Stmt *N) {
    if (isBuiltinRefNode(N))
      if (auto R = asBuiltinRef(cast<Expr>(N));
          R && R->Which == BuiltinRef::ThreadIdx)
        Dim = R->Dim;
  });
  return Dim;
}

llvm::Error NestAnalysis::checkCoordinates() {
  ThreadGeometry G = ThreadGeometry::of(Kernel, Ctx);
  if (!G.Strays.empty())
    return notApplicableAt(G.Strays.front().Where->getBeginLoc(), Ctx,
                           "the kernel " + G.Strays.front().What +
                               ", and the rewrite gives each thread other "
                               "elements");
  if (!G.LooseIndices.empty())
    return notApplicableAt(G.LooseIndices.front()->getBeginLoc(), Ctx,
                           "this global index is not kept in a variable, "
                           "which the rewrite could set for each element");
  for (const PseudoObjectExpr *B : nodesOf<PseudoObjectExpr>(Nest.Body))
    if (auto R = asBuiltinRef(B); R && R->Which == BuiltinRef::GridDim)
      return notApplicableAt(B->getBeginLoc(), Ctx,
                             "the kernel reads " + R->str() +
                                 "; the rewrite sizes the grid by tiles");
  for (const VarDecl *V : G.IndexVars) {
    std::optional<unsigned> D = dimOf(*V);
    if (!D || *D > 1)
      return notApplicableAt(V->getLocation(), Ctx,
                             "'" + V->getName() +
                                 "' is a global index in z; tensor-cores "
                                 "takes a 2-D grid of outputs");
    if (Nest.Coord[*D])
      return notApplicableAt(
          V->getLocation(), Ctx,
          "'" + Nest.Coord[*D]->getName() + "' and '" + V->getName() +
              "' both hold the global index in " + AxisNames[*D]);
    if (isReassigned(*V, *Nest.Body, Ctx))
      return notApplicableAt(V->getLocation(), Ctx,
                             "'" + V->getName() +
                                 "' is changed after its declaration, so it "
                                 "is not the thread's coordinate throughout");
    Nest.Coord[*D] = V;
  }
  for (unsigned D = 0; D < 2; ++D)
    if (!Nest.Coord[D])
      return notApplicableAt(Kernel.getLocation(), Ctx,
                             "'" + Kernel.getName() +
                                 "' keeps no global index blockIdx." +
                                 AxisNames[D] + " * blockDim." + AxisNames[D] +
                                 " + threadIdx." + AxisNames[D] +
                                 " in a variable: each thread must compute "
                                 "the output element (x, y)");
  if (llvm::Error E = checkNoCooperation(
          Kernel,
          {"which the threads of a block share",
           "so its threads cooperate and their work cannot be regrouped "
           "into tiles"},
          Ctx))
    return E;
  return BoundsGuard::check(Kernel, G.IndexVars, Ctx);
}

llvm::Error NestAnalysis::classifyLoads() {
  MatmulOperand *Side[2] = {&Nest.Right, &Nest.Left};
  const VarDecl *IV = Nest.Bounds.IV;
  for (const ArraySubscriptExpr *A : Loads) {
    std::string What = "the index of '" + text(*A, Ctx) + "'";
    if (llvm::Error E =
            checkReads(*A->getIdx(), {IV, Nest.Coord[0], Nest.Coord[1]}, What))
      return E;
    auto P = poly(*A->getIdx());
    if (!P)
      return notApplicableAt(
          A->getBeginLoc(), Ctx,
          What + " is not a polynomial: " + toString(P.takeError()));
    bool X = mentionsVar(A->getIdx(), Nest.Coord[0]);
    bool Y = mentionsVar(A->getIdx(), Nest.Coord[1]);
    if (X == Y || Side[Y]->Load)
      return notApplicableAt(
          A->getBeginLoc(), Ctx,
          "'" + text(*Loads[0], Ctx) + "' and '" + text(*Loads[1], Ctx) +
              "' are not one load that follows '" + Nest.Coord[1]->getName() +
              "' (and not '" + Nest.Coord[0]->getName() +
              "') and one that follows '" + Nest.Coord[0]->getName() +
              "' (and not '" + Nest.Coord[1]->getName() +
              "'): not a matrix product");
    MatmulOperand &O = *Side[Y];
    O.Load = A;
    O.Coord = Nest.Coord[Y];
    O.ElemType = elemTypeName(A->getType());
    auto Unit = [](std::optional<IndexPolynomial> C) {
      return C && C->asConstant() == 1;
    };
    O.KContiguous = Unit(P->coefficient(IndexAtom::of(*IV))) ||
                    !Unit(P->coefficient(IndexAtom::of(*O.Coord)));
  }
  return llvm::Error::success();
}

/// Each coordinate's upper bound where the loop runs: from the guards on it
/// alone, or through a guard `v <= w + c` (or <) on the other coordinate w
/// and w's own bound (the triangle `j <= i && i < n` bounds j by n - 1).
/// The guards on one coordinate load that operand's tile; a guard on both
/// stays in the epilogue only.
llvm::Error NestAnalysis::checkGuards() {
  std::vector<GuardTerm> Terms = guardTermsAt(*Nest.Loop, Kernel, Ctx);
  std::vector<GuardTerm> Single, Both;
  MatmulOperand *Side[2] = {&Nest.Right, &Nest.Left};
  for (const GuardTerm &T : Terms) {
    std::string Text = T.str(Ctx);
    if (llvm::Error E = checkReads(*T.Cond, {Nest.Coord[0], Nest.Coord[1]},
                                   "the guard '" + Text + "'"))
      return E;
    bool On[2] = {mentionsVar(T.Cond, Nest.Coord[0]),
                  mentionsVar(T.Cond, Nest.Coord[1])};
    (On[0] && On[1] ? Both : Single).push_back(T);
    for (unsigned D = 0; D < 2; ++D)
      if (!On[1 - D] && !(On[0] && On[1]))
        Side[D]->Guards.push_back(Text);
  }
  auto Poly = [&](const Expr &E) { return poly(E); };
  std::vector<IndexPolynomial> Upper[2];
  for (unsigned D = 0; D < 2; ++D)
    Upper[D] = VarBounds::from(*Nest.Coord[D], Single, true, Poly).uppers();
  for (unsigned D = 0; D < 2; ++D) {
    if (!Upper[D].empty())
      continue;
    const VarDecl &V = *Nest.Coord[D], &W = *Nest.Coord[1 - D];
    for (const GuardTerm &T : Both) {
      auto C = compareOf(T, V, Poly);
      if (!C || (C->Op != BO_LT && C->Op != BO_LE) || Upper[1 - D].empty())
        continue;
      auto Shift =
          (C->Bound - IndexPolynomial::atom(IndexAtom::of(W))).asConstant();
      if (!Shift)
        continue;
      IndexPolynomial Bound = Upper[1 - D].front() +
                              IndexPolynomial::constant(*Shift) -
                              IndexPolynomial::constant(C->Op == BO_LT);
      Upper[D].push_back(Bound);
      Side[D]->Guards.push_back("(" + V.getName().str() + " <= " + Bound.str() +
                                ")");
      break;
    }
    if (Upper[D].empty())
      return notApplicableAt(Nest.Loop->getBeginLoc(), Ctx,
                             "no guard bounds '" + V.getName() +
                                 "' from above where the loop runs (on its "
                                 "own, or as '" +
                                 V.getName() + " <= " + W.getName() +
                                 " + c' with a bound on that), so the tiles "
                                 "past the edge would load out of range");
  }
  return llvm::Error::success();
}

/// Writes go to local variables or to one buffer at one index.
llvm::Error NestAnalysis::checkStores() {
  const ArraySubscriptExpr *First = nullptr;
  llvm::Error Err = llvm::Error::success();
  auto Store = [&](const Expr *Target) -> llvm::Error {
    const Expr *T = Target->IgnoreParens();
    const VarDecl *V = referencedVar(T);
    if (V && V->isLocalVarDecl())
      return llvm::Error::success();
    const auto *A = dyn_cast<ArraySubscriptExpr>(T);
    if (!A || !bufferOf(*A))
      return notApplicableAt(T->getBeginLoc(), Ctx,
                             "the kernel writes '" + text(*T, Ctx) +
                                 "', neither a local variable nor an "
                                 "element of a buffer parameter");
    if (!First)
      First = A;
    return llvm::Error::success();
  };
  forEachNode(Nest.Body, [&](const Stmt *N) {
    if (Err)
      return;
    if (const auto *B = dyn_cast<BinaryOperator>(N); B && B->isAssignmentOp())
      Err = Store(B->getLHS());
    if (const auto *U = dyn_cast<UnaryOperator>(N);
        U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf))
      Err = Store(U->getSubExpr());
  });
  if (Err)
    return Err;
  if (!First)
    return notApplicableAt(Kernel.getLocation(), Ctx,
                           "'" + Kernel.getName() +
                               "' writes no element of a buffer");
  return checkOutput(*bufferOf(*First), *First->getIdx());
}

/// \p Out is the only buffer written, at \p Index, affine in both
/// coordinates, and only accessed there.
llvm::Error NestAnalysis::checkOutput(const ParmVarDecl &Out,
                                      const Expr &Index) {
  for (const MatmulOperand *O : {&Nest.Left, &Nest.Right})
    if (bufferOf(*O->Load) == &Out)
      return illegalAt(O->Load->getBeginLoc(), Ctx,
                       "'" + Out.getName() +
                           "' is both an input of the product and written");
  BufferAccess Access(Kernel, Ctx);
  for (const ParmVarDecl *P : Kernel.parameters())
    if (P != &Out && Access.mayWrite(*P))
      return illegalAt(Access.writeOf(*P)->getBeginLoc(), Ctx,
                       "'" + P->getName() + "' may be written here, besides '" +
                           Out.getName() +
                           "': the rewrite keeps one output element per "
                           "thread of the original");
  if (llvm::Error E = checkReads(Index, {Nest.Coord[0], Nest.Coord[1]},
                                 "the output's index"))
    return E;
  auto P = poly(Index);
  if (!P)
    return notApplicableAt(Index.getBeginLoc(), Ctx,
                           "the output's index is not a polynomial: " +
                               toString(P.takeError()));
  for (const ArraySubscriptExpr *A : nodesOf<ArraySubscriptExpr>(Nest.Body)) {
    if (bufferOf(*A) != &Out)
      continue;
    auto Q = poly(*A->getIdx());
    if (!Q || !(*Q == *P)) {
      if (!Q)
        llvm::consumeError(Q.takeError());
      return illegalAt(A->getBeginLoc(), Ctx,
                       "'" + Out.getName() + "' is accessed at '" +
                           text(*A->getIdx(), Ctx) + "' and at '" +
                           text(Index, Ctx) +
                           "': the output must be one element per thread");
    }
  }
  for (unsigned D = 0; D < 2; ++D) {
    auto C = P->coefficient(IndexAtom::of(*Nest.Coord[D]));
    bool Affine = C && !C->isZero() && !C->mentions([&](const IndexAtom &A) {
      return A.Var && isCoord(A.Var);
    });
    if (!Affine)
      return notApplicableAt(Index.getBeginLoc(), Ctx,
                             "the output's index '" + text(Index, Ctx) +
                                 "' is not affine in '" +
                                 Nest.Coord[D]->getName() + "'");
    if (D == 0)
      Nest.OutputXContiguous = C->asConstant() == 1;
  }
  return checkLaunchedApart(Out);
}

/// The variable a launch argument points into: `C`, `C + off`, `&C[i]`;
/// null when it is not one.
static const ValueDecl *baseOf(const Expr *Arg) {
  while (true) {
    Arg = Arg->IgnoreParenCasts();
    if (const auto *B = dyn_cast<BinaryOperator>(Arg);
        B && B->isAdditiveOp() && B->getLHS()->getType()->isPointerType()) {
      Arg = B->getLHS();
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(Arg);
        U && U->getOpcode() == UO_AddrOf) {
      Arg = U->getSubExpr();
      continue;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(Arg)) {
      Arg = A->getBase();
      continue;
    }
    const auto *R = dyn_cast<DeclRefExpr>(Arg);
    return R ? R->getDecl() : nullptr;
  }
}

/// No launch passes the output's memory as an input too: the rewrite reads
/// the inputs' tiles before it writes any output. (Two inputs may share a
/// buffer, as in A * A^T.) Without a launch in the file the spec's buffers
/// are distinct.
llvm::Error NestAnalysis::checkLaunchedApart(const ParmVarDecl &Out) {
  unsigned OutIndex = Out.getFunctionScopeIndex();
  KernelLaunches Launches(Ctx, Kernel);
  for (const CUDAKernelCallExpr *Call : Launches.calls()) {
    if (Call->getNumArgs() <= OutIndex)
      continue;
    const Expr *OutArg = Call->getArg(OutIndex);
    const ValueDecl *OutBase = baseOf(OutArg);
    for (const MatmulOperand *O : {&Nest.Left, &Nest.Right}) {
      unsigned In = bufferOf(*O->Load)->getFunctionScopeIndex();
      if (In >= Call->getNumArgs())
        continue;
      if (!OutBase || baseOf(Call->getArg(In)) == OutBase)
        return illegalAt(
            OutArg->getBeginLoc(), Ctx,
            "this launch may pass the same memory as the output '" +
                Out.getName() + "' and the input '" +
                bufferOf(*O->Load)->getName() +
                "', whose tiles the rewrite reads before it "
                "writes any output");
    }
  }
  return llvm::Error::success();
}

llvm::Error NestAnalysis::checkReturns() {
  std::vector<const IfStmt *> Early = earlyReturns(Kernel);
  for (const Stmt *N : nodesOf<Stmt>(Nest.Body)) {
    if (isa<GotoStmt, IndirectGotoStmt, LabelStmt>(N))
      return notApplicableAt(N->getBeginLoc(), Ctx,
                             "goto and labels cannot move into the "
                             "per-element epilogue");
    const auto *R = dyn_cast<ReturnStmt>(N);
    if (!R)
      continue;
    bool Top = llvm::any_of(Early, [&](const IfStmt *If) {
      return If->getSourceRange().fullyContains(R->getSourceRange());
    });
    if (!Top || R->getBeginLoc().isMacroID())
      return notApplicableAt(R->getBeginLoc(), Ctx,
                             "this return is not a top-level "
                             "'if (...) return;', which the per-element "
                             "epilogue turns into 'continue'");
    Nest.Returns.push_back(R);
  }
  return llvm::Error::success();
}

llvm::Expected<MatmulNest> NestAnalysis::run(const Stmt &Loop) {
  Nest.Kernel = &Kernel;
  Nest.Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  if (!Nest.Body || Nest.Body->body_empty())
    return notApplicableAt(Kernel.getLocation(), Ctx, "the kernel has no body");
  if (llvm::Error E = checkLoop(Loop))
    return E;
  if (llvm::Error E = checkAccumulation())
    return E;
  if (llvm::Error E = checkCoordinates())
    return E;
  if (llvm::Error E = checkRange())
    return E;
  if (llvm::Error E = classifyLoads())
    return E;
  if (llvm::Error E = checkGuards())
    return E;
  if (llvm::Error E = checkStores())
    return E;
  if (llvm::Error E = checkReturns())
    return E;
  return std::move(Nest);
}

} // namespace

llvm::Expected<MatmulNest> MatmulNest::analyze(const FunctionDecl &Kernel,
                                               const Stmt &Loop,
                                               llvm::StringRef Site,
                                               ASTContext &Ctx) {
  return NestAnalysis(Kernel, Site, Ctx).run(Loop);
}
