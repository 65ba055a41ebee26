//===- HoistLegality.cpp - what index arithmetic can leave a loop? -------===//

#include "transforms/Hoist/HoistLegality.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;

namespace {

/// What an expression is, as something to compute before the loop.
struct Shape {
  enum Kind {
    Other,    ///< Not plain integer/pointer arithmetic (or a comparison...).
    Rejected, ///< Arithmetic that must not be evaluated speculatively.
    Hoistable,
  } K = Other;
  std::string Why; ///< For Rejected.
};

/// Walks the parts of a loop evaluated on every iteration and collects the
/// maximal hoistable expressions, and why near misses were left.
class CandidateFinder {
public:
  CandidateFinder(const Stmt &Loop, ASTContext &Ctx) : Loop(Loop), Ctx(Ctx) {}

  void walkLoop();

  std::vector<const Expr *> Found;
  std::vector<std::string> Misses;

private:
  void stmt(const Stmt *S, bool Always);
  void expr(const Expr *E, bool Always);
  void children(const Expr *E, bool Always);
  bool consider(const Expr *E, bool Always);
  void miss(const Expr *E, llvm::StringRef Why);

  const Stmt &Loop;
  ASTContext &Ctx;
};

} // namespace

static bool isArithType(QualType T) {
  return !T->isDependentType() &&
         ((T->isIntegerType() && !T->isBooleanType()) || T->isPointerType() ||
          T->isArrayType());
}

/// Whether \p E is an integer constant other than 0 and -1 (a divisor that
/// cannot trap or overflow).
static bool isSafeDivisor(const Expr *E, const ASTContext &Ctx) {
  if (E->isValueDependent())
    return false;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return false;
  return !R.Val.getInt().isZero() && !R.Val.getInt().isAllOnes();
}

/// Combines the shape of a node's own kind with its operands'.
static Shape shapeOf(const Expr *E, const ASTContext &Ctx, bool &HasMul);

static Shape operandsShape(const Expr *E, const ASTContext &Ctx, bool &HasMul) {
  Shape Result{Shape::Hoistable, ""};
  for (const Stmt *Child : E->children()) {
    const auto *CE = dyn_cast_or_null<Expr>(Child);
    if (!CE)
      return {};
    Shape S = shapeOf(CE, Ctx, HasMul);
    if (S.K == Shape::Other)
      return S;
    if (S.K == Shape::Rejected && Result.K != Shape::Rejected)
      Result = S;
  }
  return Result;
}

static Shape shapeOf(const Expr *E, const ASTContext &Ctx, bool &HasMul) {
  if (isBuiltinRefNode(E) ||
      isa<IntegerLiteral, CharacterLiteral, UnaryExprOrTypeTraitExpr,
          SubstNonTypeTemplateParmExpr>(E))
    return {Shape::Hoistable, ""};
  if (E->getType()->isRealFloatingType())
    return {Shape::Rejected, "is floating-point arithmetic"};
  if (E->isTypeDependent() ||
      (!isArithType(E->getType()) && !isa<DeclRefExpr>(E)))
    return {};
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if (V && V->getType().isVolatileQualified())
      return {};
    if (V || isa<EnumConstantDecl, NonTypeTemplateParmDecl>(Ref->getDecl()))
      return {Shape::Hoistable, ""};
    return {};
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    switch (B->getOpcode()) {
    case BO_Mul:
      HasMul = true;
      [[fallthrough]];
    case BO_Add:
    case BO_Sub:
    case BO_Shl:
    case BO_Shr:
    case BO_And:
    case BO_Or:
    case BO_Xor:
      return operandsShape(E, Ctx, HasMul);
    case BO_Div:
    case BO_Rem: {
      Shape S = operandsShape(E, Ctx, HasMul);
      if (S.K == Shape::Hoistable && !isSafeDivisor(B->getRHS(), Ctx))
        return {Shape::Rejected,
                "divides by a value that may be zero (or -1) when the loop "
                "does not run"};
      return S;
    }
    default:
      return {};
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Deref)
      return {Shape::Rejected, "reads memory, which may not be valid when the "
                               "loop does not run"};
    if (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus ||
        U->getOpcode() == UO_Not)
      return operandsShape(E, Ctx, HasMul);
    return {};
  }
  if (isa<ArraySubscriptExpr>(E) ||
      (isa<MemberExpr>(E) && cast<MemberExpr>(E)->isArrow()))
    return {Shape::Rejected, "reads memory, which may not be valid when the "
                             "loop does not run"};
  if (const auto *C = dyn_cast<CastExpr>(E)) {
    if (C->getCastKind() == CK_FunctionToPointerDecay)
      return {Shape::Hoistable, ""};
    return operandsShape(E, Ctx, HasMul);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return isPureMathCall(*Call, Ctx) ? operandsShape(E, Ctx, HasMul) : Shape{};
  if (isa<ParenExpr, MemberExpr>(E))
    return operandsShape(E, Ctx, HasMul);
  return {};
}

/// Whether \p S may leave the current iteration early (so that the
/// statements after it do not always run).
static bool mayJump(const Stmt *S, bool InLoop = false, bool InSwitch = false) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr>(S))
    return true;
  if (isa<ContinueStmt>(S))
    return !InLoop;
  if (isa<BreakStmt>(S))
    return !InLoop && !InSwitch;
  bool Loop = InLoop || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  bool Switch = InSwitch || isa<SwitchStmt>(S);
  return llvm::any_of(S->children(), [&](const Stmt *Child) {
    return mayJump(Child, Loop, Switch);
  });
}

void CandidateFinder::miss(const Expr *E, llvm::StringRef Why) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourcePos P = positionOf(E->getBeginLoc(), SM);
  // Inside a macro, name the whole macro use.
  SourceRange Written = SM.getExpansionRange(E->getSourceRange()).getAsRange();
  std::string Text = "'" + textOf(Written, Ctx) + "' at " +
                     std::to_string(P.Line) + ":" + std::to_string(P.Column) +
                     " " + Why.str();
  if (!llvm::is_contained(Misses, Text))
    Misses.push_back(Text);
}

static bool writtenInMainFile(const Expr *E, const SourceManager &SM) {
  SourceLocation B = E->getBeginLoc(), End = E->getEndLoc();
  return B.isFileID() && End.isFileID() && SM.isWrittenInMainFile(B);
}

/// Records \p E when it is a hoistable candidate; returns whether the walk
/// should stop at it.
bool CandidateFinder::consider(const Expr *E, bool Always) {
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->getOpcode() == BO_Mul && E->getType()->isRealFloatingType() &&
      isLoopInvariant(*E, Loop, Ctx)) {
    miss(E, "is floating-point arithmetic (moved, it could be contracted "
            "into FMAs differently)");
    return false;
  }
  bool HasMul = false;
  Shape S = shapeOf(E, Ctx, HasMul);
  if (S.K == Shape::Other || !isArithType(E->getType()) ||
      E->getType()->isArrayType())
    return false;
  // Arithmetic without a multiplication is not worth a name, and has none
  // below it.
  if (!HasMul)
    return S.K == Shape::Hoistable;
  if (E->getType()->isIntegerType() && !E->isValueDependent() &&
      E->isIntegerConstantExpr(Ctx))
    return true; // The compiler folds it already.
  if (!isLoopInvariant(*E, Loop, Ctx))
    return false;
  if (S.K == Shape::Rejected) {
    miss(E, S.Why);
    return false; // A part of it may still be hoistable.
  }
  if (!writtenInMainFile(E, Ctx.getSourceManager())) {
    miss(E, "is inside a macro");
    return true;
  }
  if (!Always) {
    miss(E, "is evaluated only on some iterations");
    return true;
  }
  Found.push_back(E);
  return true;
}

void CandidateFinder::children(const Expr *E, bool Always) {
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isLogicalOp()) {
    expr(B->getLHS(), Always);
    expr(B->getRHS(), false);
    return;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    expr(C->getCond(), Always);
    expr(C->getTrueExpr(), false);
    expr(C->getFalseExpr(), false);
    return;
  }
  if (const auto *C = dyn_cast<BinaryConditionalOperator>(E)) {
    expr(C->getCommon(), Always);
    expr(C->getFalseExpr(), false);
    return;
  }
  for (const Stmt *Child : E->children())
    expr(dyn_cast_or_null<Expr>(Child), Always);
}

void CandidateFinder::expr(const Expr *E, bool Always) {
  if (!E || isBuiltinRefNode(E) ||
      isa<UnaryExprOrTypeTraitExpr, LambdaExpr, StmtExpr, PseudoObjectExpr,
          OpaqueValueExpr>(E))
    return;
  if (!isa<ImplicitCastExpr>(E) && consider(E, Always))
    return;
  children(E, Always);
}

void CandidateFinder::stmt(const Stmt *S, bool Always) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S))
    return expr(E, Always);
  if (const auto *C = dyn_cast<CompoundStmt>(S)) {
    bool Reached = Always;
    for (const Stmt *Child : C->body()) {
      stmt(Child, Reached);
      Reached = Reached && !mayJump(Child);
    }
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        expr(V->getInit(), Always);
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    stmt(If->getInit(), Always);
    expr(If->getCond(), Always);
    stmt(If->getThen(), false);
    stmt(If->getElse(), false);
    return;
  }
  if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    stmt(Sw->getInit(), Always);
    expr(Sw->getCond(), Always);
    stmt(Sw->getBody(), false);
    return;
  }
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    stmt(For->getInit(), Always);
    expr(For->getCond(), Always); // Evaluated at least once.
    expr(For->getInc(), false);
    stmt(For->getBody(), false);
    return;
  }
  if (const auto *While = dyn_cast<WhileStmt>(S)) {
    expr(While->getCond(), Always);
    stmt(While->getBody(), false);
    return;
  }
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    stmt(Do->getBody(), Always); // Runs at least once.
    expr(Do->getCond(), false);
    return;
  }
  if (const auto *A = dyn_cast<AttributedStmt>(S))
    return stmt(A->getSubStmt(), Always);
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    return expr(R->getRetValue(), Always);
  // Labels and cases can be jumped to; anything else has no expressions
  // worth hoisting.
  for (const Stmt *Child : S->children())
    stmt(Child, false);
}

void CandidateFinder::walkLoop() {
  if (const auto *For = dyn_cast<ForStmt>(&Loop)) {
    expr(For->getCond(), true);
    stmt(For->getBody(), true);
    expr(For->getInc(), false);
  } else if (const auto *While = dyn_cast<WhileStmt>(&Loop)) {
    expr(While->getCond(), true);
    stmt(While->getBody(), true);
  } else if (const auto *Do = dyn_cast<DoStmt>(&Loop)) {
    stmt(Do->getBody(), true);
    expr(Do->getCond(), !mayJump(Do->getBody()));
  }
}

/// Groups equal expressions (same operators on the same declarations).
static std::vector<HoistCandidate> group(llvm::ArrayRef<const Expr *> Found,
                                         const ASTContext &Ctx) {
  std::vector<HoistCandidate> Out;
  std::vector<llvm::FoldingSetNodeID> Keys;
  for (const Expr *E : Found) {
    llvm::FoldingSetNodeID Key;
    E->IgnoreParens()->Profile(Key, Ctx, /*Canonical=*/true);
    auto It = llvm::find(Keys, Key);
    if (It != Keys.end()) {
      Out[It - Keys.begin()].Uses.push_back(E);
      continue;
    }
    Keys.push_back(Key);
    Out.push_back(HoistCandidate{{E}, E->getType()});
  }
  return Out;
}

llvm::Expected<std::vector<HoistCandidate>>
HoistLegality::check(const Stmt &Loop, llvm::StringRef Site, ASTContext &Ctx) {
  if (isa<CXXForRangeStmt>(Loop))
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "'" + Site +
                               "' is a range-for loop, which hoist "
                               "does not handle");
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Loop.getBeginLoc().isFileID() ||
      !SM.isWrittenInMainFile(Loop.getBeginLoc()))
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "'" + Site + "' is written inside a macro");
  CandidateFinder Finder(Loop, Ctx);
  Finder.walkLoop();
  if (Finder.Found.empty()) {
    std::string Why = "nothing to hoist: no loop-invariant integer arithmetic "
                      "with a multiplication is evaluated on every iteration";
    if (!Finder.Misses.empty()) {
      llvm::ArrayRef<std::string> Shown(Finder.Misses);
      Why += " (" + llvm::join(Shown.take_front(3), "; ") +
             (Shown.size() > 3 ? "; ..." : "") + ")";
    }
    return notApplicableAt(Loop.getBeginLoc(), Ctx, Why);
  }
  return group(Finder.Found, Ctx);
}
