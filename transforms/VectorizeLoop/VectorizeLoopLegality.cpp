//===- VectorizeLoopLegality.cpp - may a loop's walk load W at once? ------===//

#include "transforms/VectorizeLoop/VectorizeLoopLegality.h"
#include "optiml/Analysis/Legality/BufferRoot.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/FirstRefusal.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"
#include "transforms/VectorizeLoop/LoopWrites.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

bool VectorizeLoopPlan::declaresIV() const {
  return isa<DeclStmt>(Loop.For->getInit());
}

std::string VectorizeLoopLegality::vectorType(llvm::StringRef Element,
                                              unsigned Width) {
  if (Element == "double")
    return Width == 2 ? "double2" : "";
  if (Element == "unsigned int")
    return "uint" + std::to_string(Width);
  return Element.str() + std::to_string(Width);
}

namespace {

/// The first statement of a loop body \p S that would not behave in a copy
/// as in an iteration: a break or continue of the loop itself (not of a
/// nested loop or switch), a return, a goto or a label.
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

std::string jumpName(const Stmt &J) {
  if (const auto *L = dyn_cast<LabelStmt>(&J))
    return "label '" + std::string(L->getName()) + "'";
  if (isa<GotoStmt, IndirectGotoStmt>(J))
    return "a 'goto'";
  if (isa<BreakStmt>(J))
    return "'break'";
  if (isa<ContinueStmt>(J))
    return "'continue'";
  return "'return'";
}

/// Whether the step from \p Child to its parent \p Parent may skip
/// \p Child on an iteration that runs \p Parent: a branch of an if, ?: or
/// switch, the right of && or ||, the body of a nested loop, or an operand
/// that is not evaluated (sizeof).
bool mayBeSkipped(const DynTypedNode &Parent, const Stmt *Child) {
  if (const auto *If = Parent.get<IfStmt>())
    return Child != If->getCond() && Child != If->getInit();
  if (const auto *C = Parent.get<AbstractConditionalOperator>())
    return Child != C->getCond();
  if (const auto *B = Parent.get<BinaryOperator>())
    return B->isLogicalOp() && Child == B->getRHS();
  if (const auto *F = Parent.get<ForStmt>())
    return Child != F->getInit() && Child != F->getCond();
  if (const auto *W = Parent.get<WhileStmt>())
    return Child != W->getCond();
  if (const auto *S = Parent.get<SwitchStmt>())
    return Child != S->getCond() && Child != S->getInit();
  return Parent.get<DoStmt>() || Parent.get<CXXForRangeStmt>() ||
         Parent.get<UnaryExprOrTypeTraitExpr>() || Parent.get<LambdaExpr>() ||
         Parent.get<CXXTypeidExpr>() || Parent.get<GenericSelectionExpr>();
}

/// The statement or expression around \p E that may not run on every
/// iteration of the loop whose body is \p Body; null when \p E always runs.
const Stmt *conditionalAround(const Expr &E, const Stmt &Body,
                              ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(E);
  const Stmt *Child = &E;
  while (Child != &Body) {
    DynTypedNode Parent = parentOf(Node, Ctx);
    if (Parent.getNodeKind().isNone())
      return nullptr;
    if (mayBeSkipped(Parent, Child))
      return Parent.get<Stmt>();
    if (const Stmt *S = Parent.get<Stmt>())
      Child = S;
    Node = Parent;
  }
  return nullptr;
}

/// The element type's name when a vector of it can be loaded ("float"),
/// else empty.
std::string elementName(QualType T) {
  const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
  if (!BT)
    return "";
  switch (BT->getKind()) {
  case BuiltinType::Float:
    return "float";
  case BuiltinType::Double:
    return "double";
  case BuiltinType::Int:
    return "int";
  case BuiltinType::UInt:
    return "unsigned int";
  default:
    return "";
  }
}

/// One read the rewrite may load as part of a vector, before grouping.
struct Candidate {
  const ArraySubscriptExpr *Read;
  const ParmVarDecl *Buffer;
  const VarDecl *Base; ///< The pointer variable subscripted.
  IndexPolynomial Index;
  std::string Element;
  std::string Vector;
  /// How far apart, in elements, neighbouring threads (threadIdx.x) read,
  /// when that is a constant.
  std::optional<int64_t> LaneStride;
};

/// The constant distance between the elements that threads threadIdx.x
/// and threadIdx.x + 1 read at \p A, with locals expanded; else nothing.
std::optional<int64_t> laneStrideOf(const ArraySubscriptExpr &A,
                                    const std::optional<BufferRoot> &Root,
                                    ASTContext &Ctx) {
  std::optional<IndexPolynomial> Index =
      Root ? elementIndexOf(A, *Root, Ctx) : std::nullopt;
  if (!Index)
    return std::nullopt;
  auto Lane =
      Index->coefficient(IndexAtom::of(BuiltinRef{BuiltinRef::ThreadIdx, 0}));
  return Lane ? Lane->asConstant() : std::nullopt;
}

/// Whether \p For is the scalar loop a vectorized loop left after it: it
/// starts at a variable V, and the statement before it is
/// `if (...) { for (; ...; V += W) ... }`. It runs at most W-1 iterations,
/// or unaligned ones, so vectorizing it again would do nothing.
bool followsVectorLoop(const ForStmt &For, const CanonicalLoop &L,
                       ASTContext &Ctx) {
  const auto *Start = dyn_cast<DeclRefExpr>(L.Lower->IgnoreParenImpCasts());
  const auto *Block =
      parentOf(DynTypedNode::create(For), Ctx).get<CompoundStmt>();
  if (!Start || !Block)
    return false;
  const Stmt *Before = nullptr;
  for (const Stmt *S : Block->body()) {
    if (S == &For)
      break;
    Before = S;
  }
  const auto *If = dyn_cast_or_null<IfStmt>(Before);
  const auto *Then =
      If ? dyn_cast<CompoundStmt>(If->getThen()) : nullptr;
  const auto *Vector =
      Then && Then->size() == 1 ? dyn_cast<ForStmt>(Then->body_front())
                                : nullptr;
  const auto *Inc =
      Vector ? dyn_cast_or_null<BinaryOperator>(Vector->getInc()) : nullptr;
  const auto *Counter =
      Inc ? dyn_cast<DeclRefExpr>(Inc->getLHS()->IgnoreParens()) : nullptr;
  // Counter is set only when If, Vector and Inc are.
  return Counter && !If->getElse() && !Vector->getInit() &&
         Inc->getOpcode() == BO_AddAssign &&
         Counter->getDecl() == Start->getDecl();
}

class Checker {
public:
  Checker(const Site &S, unsigned Width, ASTContext &Ctx)
      : S(S), Width(Width), Ctx(Ctx) {}

  llvm::Expected<VectorizeLoopPlan> run();

private:
  llvm::Error checkPlacement();
  llvm::Error checkShape();
  llvm::Error checkBody();
  void collectReads();
  llvm::Expected<std::optional<Candidate>>
  candidateOf(const ArraySubscriptExpr &A);
  llvm::Error checkWalk(const ArraySubscriptExpr &A, const Candidate &C);
  llvm::Error checkInvariant(const ArraySubscriptExpr &A);
  llvm::Error checkNoNarrowing(const ArraySubscriptExpr &A);
  void group(Candidate C);
  void dropUnalignable();
  void dropOverlapping();

  std::string readOf(const ArraySubscriptExpr &A) const {
    return "this read of '" + textOf(A.getBase()->getSourceRange(), Ctx) + "'";
  }

  const Site &S;
  unsigned Width;
  ASTContext &Ctx;
  CanonicalLoop L;
  std::vector<Candidate> Groups; ///< One per walked element.
  VectorizeLoopPlan Plan;
  /// Why reads at base + IV cannot be vectorized; then why other reads
  /// are not walks at all (less telling, reported only after).
  FirstRefusal WalkRefusal, OtherRefusal;
};

llvm::Error Checker::checkPlacement() {
  auto Rewritable =
      rewritableFor(*S.Loop, S.Name, "vectorize-loop needs a counted for-loop",
                    "it cannot be copied", Ctx);
  if (!Rewritable)
    return Rewritable.takeError();
  // A loop pragma would end up on the statement that starts the rewrite.
  if (const auto *A =
          parentOf(DynTypedNode::create(*S.Loop), Ctx).get<AttributedStmt>())
    return notApplicableAt(A->getAttrs().front()->getLocation(), Ctx,
                           "'" + S.Name +
                               "' has a loop pragma or attribute, which the "
                               "vector and scalar loops could not share");
  auto Loop = analyzeLoop(**Rewritable, Ctx);
  if (!Loop)
    return Loop.takeError();
  L = *Loop;
  if (followsVectorLoop(**Rewritable, L, Ctx))
    return notApplicableAt(L.For->getBeginLoc(), Ctx,
                           "'" + S.Name +
                               "' is the scalar loop of a vectorized loop: "
                               "it runs the iterations left after whole "
                               "vectors, or unaligned ones");
  return llvm::Error::success();
}

llvm::Error Checker::checkShape() {
  const ForStmt &For = *L.For;
  if (L.Step != 1)
    return notApplicableAt(For.getInc()->getBeginLoc(), Ctx,
                           "the step is " + llvm::Twine(L.Step) +
                               "; vectorize-loop walks loops that count up "
                               "by 1, one element an iteration");
  if (L.Cmp != BO_LT && L.Cmp != BO_LE)
    return notApplicableAt(For.getCond()->getBeginLoc(), Ctx,
                           "the condition is not 'i < bound' or 'i <= "
                           "bound'; vectorize-loop needs an upper bound");
  // `int i = f(i)` reads the new `i`; moved before the loop it would read
  // another.
  if (isa<DeclStmt>(For.getInit()) && !usesOf(*L.IV, *L.Lower, Ctx).empty())
    return notApplicableAt(L.Lower->getBeginLoc(), Ctx,
                           "the initial value reads the induction variable '" +
                               L.IV->getName() + "' itself");
  for (const Expr *Part : {L.Lower, For.getCond(), For.getInc()})
    if (textOf(Part->getSourceRange(), Ctx).empty())
      return notApplicableAt(Part->getBeginLoc(), Ctx,
                             "part of the loop's header comes from a macro "
                             "and cannot be copied");
  if (L.TripCount && *L.TripCount < Width)
    return notApplicableAt(For.getBeginLoc(), Ctx,
                           "the loop runs " + llvm::Twine(*L.TripCount) +
                               " times, fewer than the width " +
                               llvm::Twine(Width));
  // The vector loop tests `counter + (W-1)` against the bound.
  auto Last = constantBoundValue(L, Ctx);
  if (!Last)
    return Last.takeError();
  if (*Last && **Last + Width > maxValueOf(L.IV->getType(), Ctx))
    return illegalAt(L.Bound->getBeginLoc(), Ctx,
                     "the vector loop's test would overflow '" +
                         L.IV->getType().getAsString() + "' near the bound");
  return llvm::Error::success();
}

llvm::Error Checker::checkBody() {
  const Stmt *Body = L.For->getBody();
  if (const Stmt *J = firstJump(Body, false, false))
    return notApplicableAt(J->getBeginLoc(), Ctx,
                           "the body has " + jumpName(*J) +
                               "; vectorize-loop copies only bodies that "
                               "run to their end without jumps");
  for (const DeclStmt *DS : nodesOf<DeclStmt>(Body))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D)) {
        if (!V->hasLocalStorage())
          return illegalAt(V->getLocation(), Ctx,
                           "the body declares '" + V->getName() +
                               "' with static storage (static or "
                               "__shared__); each copy would have its own");
        // Copies declare the IV; the body's own would clash with it.
        if (V->getName() == L.IV->getName())
          return notApplicableAt(V->getLocation(), Ctx,
                                 "the body declares its own '" + V->getName() +
                                     "', the name of the induction variable "
                                     "each copy declares");
      }
  for (const CallExpr *Call : nodesOf<CallExpr>(Body))
    if (isCooperativeCall(*Call))
      return illegalAt(Call->getBeginLoc(), Ctx,
                       "the body calls '" +
                           Call->getDirectCallee()->getName() +
                           "': a vector load moved ahead of it could miss "
                           "what other threads wrote before it");
  return llvm::Error::success();
}

/// The read \p A as a candidate: std::nullopt when it does not move with
/// the IV (nothing to say), an error when it moves but not by one element
/// an iteration.
llvm::Expected<std::optional<Candidate>>
Checker::candidateOf(const ArraySubscriptExpr &A) {
  // Variables declared before the loop are kept as they are written: the
  // vector's address is the index's own text evaluated at the chunk's first
  // iteration. The body's own locals are expanded, so that a read through
  // one (`int k = j; p[k]`) is recognized as a walk and refused by name.
  const SourceRange Body = L.For->getBody()->getSourceRange();
  auto Index = IndexPolynomial::of(
      *A.getIdx(), Ctx,
      [&](const VarDecl &V) { return Body.fullyContains(V.getLocation()); });
  const IndexAtom IV = IndexAtom::of(*L.IV);
  if (!Index) {
    llvm::consumeError(Index.takeError());
    if (usesOf(*L.IV, *A.getIdx(), Ctx).empty())
      return std::nullopt;
    return illegalAt(A.getIdx()->getBeginLoc(), Ctx,
                     readOf(A) + " is at an index that is not a polynomial "
                                 "of '" + L.IV->getName() +
                         "', so its elements are not known to be consecutive");
  }
  auto Step = Index->coefficient(IV);
  if (Step && Step->isZero())
    return std::nullopt;
  if (!Step || Step->asConstant() != 1)
    return illegalAt(A.getIdx()->getBeginLoc(), Ctx,
                     readOf(A) + " moves by '" +
                         (Step ? Step->str() : std::string("a power")) +
                         "' elements as '" + L.IV->getName() +
                         "' advances, not by one");
  Candidate C{&A, nullptr, nullptr, std::move(*Index), "", "", std::nullopt};
  return std::optional<Candidate>(std::move(C));
}

llvm::Error Checker::checkInvariant(const ArraySubscriptExpr &A) {
  const SourceRange Loop = L.For->getSourceRange();
  llvm::Error Err = llvm::Error::success();
  forEachNode(&A, [&](const Stmt *N) {
    const auto *Ref = dyn_cast<DeclRefExpr>(N);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (Err || !V || V == L.IV)
      return;
    if (Loop.fullyContains(V->getLocation()))
      Err = illegalAt(Ref->getBeginLoc(), Ctx,
                      readOf(A) + " uses '" + V->getName() +
                          "', declared in the loop; its vector load, made "
                          "before the body, cannot");
    else if (!isLoopInvariant(*Ref, *L.For, Ctx))
      Err = illegalAt(Ref->getBeginLoc(), Ctx,
                      readOf(A) + " uses '" + V->getName() +
                          "', which may change in the loop, so its elements "
                          "are not a walk");
  });
  return Err;
}

/// Refuses a cast to a narrower integer around the IV (`(short)j`): the
/// index would wrap where the walk goes on.
llvm::Error Checker::checkNoNarrowing(const ArraySubscriptExpr &A) {
  for (const CastExpr *C : nodesOf<CastExpr>(A.getIdx())) {
    // `(short)j` is a no-op cast around the conversion: compare with the
    // value converted, so that the cast written is the one reported.
    QualType To = C->getType(),
             From = C->getSubExpr()->IgnoreImpCasts()->getType();
    if (!To->isIntegerType() || !From->isIntegerType() ||
        Ctx.getTypeSize(To) >= Ctx.getTypeSize(From) ||
        usesOf(*L.IV, *C, Ctx).empty())
      continue;
    return illegalAt(C->getBeginLoc(), Ctx,
                     readOf(A) + " narrows '" + L.IV->getName() + "' to '" +
                         To.getAsString() +
                         "', which may wrap between two iterations");
  }
  return llvm::Error::success();
}

/// The rules for a read at base + IV, one by one.
llvm::Error Checker::checkWalk(const ArraySubscriptExpr &A,
                               const Candidate &C) {
  std::string Read = readOf(A);
  if (!C.Buffer)
    return illegalAt(A.getBase()->getBeginLoc(), Ctx,
                     Read + " is not through a kernel buffer parameter or "
                            "a local pointer set once from one");
  QualType T = A.getType();
  if (T.isVolatileQualified())
    return illegalAt(A.getBeginLoc(), Ctx,
                     Read + " is volatile: each element must be loaded on "
                            "its own, when its iteration runs");
  if (C.Element.empty())
    return illegalAt(A.getBeginLoc(), Ctx,
                     Read + " loads '" + T.getUnqualifiedType().getAsString() +
                         "'; vectorize-loop loads int, unsigned, float and "
                         "double elements");
  if (C.Vector.empty())
    return illegalAt(A.getBeginLoc(), Ctx,
                     Read + " loads doubles, and " + C.Element +
                         llvm::Twine(Width) +
                         " is not one load (use width=2)");
  // Thread t's chunk then starts one element after thread t-1's: only one
  // thread in W is aligned, and a warp would run both loops (its loads are
  // coalesced already).
  if (C.LaneStride && (*C.LaneStride == 1 || *C.LaneStride == -1))
    return notApplicableAt(A.getBeginLoc(), Ctx,
                           Read + " is one element from the next thread's "
                                  "(threadIdx.x): the chunks of only one "
                                  "thread in " +
                               llvm::Twine(Width) +
                               " would be aligned, and a warp would run "
                               "both loops");
  const SourceManager &SM = Ctx.getSourceManager();
  if (A.getBeginLoc().isMacroID() || A.getEndLoc().isMacroID() ||
      !SM.isWrittenInMainFile(A.getBeginLoc()))
    return notApplicableAt(SM.getExpansionLoc(A.getBeginLoc()), Ctx,
                           Read + " is written inside a macro");
  if (const Stmt *Cond = conditionalAround(A, *L.For->getBody(), Ctx))
    return illegalAt(Cond->getBeginLoc(), Ctx,
                     Read + " may be skipped on some iterations; a vector "
                            "load could read elements the loop does not");
  if (llvm::Error E = checkInvariant(A))
    return E;
  return checkNoNarrowing(A);
}

void Checker::group(Candidate C) {
  for (size_t I = 0; I < Groups.size(); ++I)
    if (Groups[I].Base == C.Base && Groups[I].Index == C.Index) {
      Plan.Walks[I].Reads.push_back(C.Read);
      return;
    }
  Plan.Walks.push_back({C.Buffer, {C.Read}, C.Element, C.Vector});
  Groups.push_back(std::move(C));
}

void Checker::collectReads() {
  for (const auto *A : nodesOf<ArraySubscriptExpr>(L.For->getBody())) {
    if (lvalueUseOf(*A, Ctx) != LvalueUse::Read)
      continue;
    auto C = candidateOf(*A);
    if (!C) {
      OtherRefusal.note(C.takeError());
      continue;
    }
    if (!*C)
      continue;
    Candidate &Cand = **C;
    const auto *Ref = dyn_cast<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts());
    Cand.Base = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    std::optional<BufferRoot> Root;
    if (Cand.Base)
      Root = bufferRootOf(*Cand.Base, *S.Kernel, Ctx);
    if (Root)
      Cand.Buffer = Root->Param;
    Cand.LaneStride = laneStrideOf(*A, Root, Ctx);
    Cand.Element = elementName(A->getType());
    Cand.Vector = Cand.Element.empty()
                      ? ""
                      : VectorizeLoopLegality::vectorType(Cand.Element, Width);
    if (llvm::Error E = checkWalk(*A, Cand)) {
      WalkRefusal.note(std::move(E));
      continue;
    }
    group(std::move(Cand));
  }
}

/// Two walks of one pointer a constant not a multiple of W apart can never
/// both be aligned: the later one is left scalar.
void Checker::dropUnalignable() {
  for (size_t I = 0; I < Plan.Walks.size(); ++I)
    for (size_t J = 0; J < I; ++J) {
      if (Groups[I].Base != Groups[J].Base)
        continue;
      auto Apart = (Groups[I].Index - Groups[J].Index).asConstant();
      if (!Apart || *Apart % Width == 0)
        continue;
      const ArraySubscriptExpr &A = *Plan.Walks[I].Reads.front();
      WalkRefusal.note(illegalAt(
          A.getBeginLoc(), Ctx,
          readOf(A) + " is " + llvm::Twine(*Apart) +
              " elements from another walked read of it; the two cannot "
              "both be aligned to " +
              llvm::Twine(Width) + " elements"));
      Plan.Walks.erase(Plan.Walks.begin() + I);
      Groups.erase(Groups.begin() + I);
      --I;
      break;
    }
}

/// Walks of buffers the loop may write are left scalar.
void Checker::dropOverlapping() {
  LoopWrites Writes(*L.For->getBody(), *S.Kernel, Ctx);
  for (size_t I = 0; I < Plan.Walks.size();) {
    if (llvm::Error E = Writes.checkUntouched(*Plan.Walks[I].Buffer)) {
      WalkRefusal.note(std::move(E));
      Plan.Walks.erase(Plan.Walks.begin() + I);
      Groups.erase(Groups.begin() + I);
    } else {
      ++I;
    }
  }
}

llvm::Expected<VectorizeLoopPlan> Checker::run() {
  if (llvm::Error E = checkPlacement())
    return E;
  if (llvm::Error E = checkShape())
    return E;
  if (llvm::Error E = checkBody())
    return E;
  collectReads();
  dropUnalignable();
  dropOverlapping();
  if (Plan.Walks.empty())
    return WalkRefusal.take(OtherRefusal.take(notApplicableAt(
        L.For->getBeginLoc(), Ctx,
        "the loop reads no buffer element at 'base + " + L.IV->getName() +
            "' (one element further each iteration)")));
  Plan.Loop = L;
  Plan.Width = Width;
  return std::move(Plan);
}

} // namespace

llvm::Expected<VectorizeLoopPlan>
VectorizeLoopLegality::check(const Site &S, unsigned Width, ASTContext &Ctx) {
  return Checker(S, Width, Ctx).run();
}
