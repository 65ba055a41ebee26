//===- LoopWrites.cpp - what memory a loop body may write -----------------===//

#include "transforms/VectorizeLoop/LoopWrites.h"
#include "optiml/Analysis/Legality/BufferRoot.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/DistinctBuffers.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

namespace {

/// What an lvalue's storage is: a variable's own (`s`, `a[2].x`), or
/// memory reached through a pointer (`p[i]`, `q->x`, `*(p + 1)`).
struct LvalueBase {
  const VarDecl *Var = nullptr;
  const Expr *Pointer = nullptr;
};

/// The array \p E decays from, when it is an array-to-pointer decay.
const Expr *decayedArray(const Expr *E) {
  const auto *C = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
  return C && C->getCastKind() == CK_ArrayToPointerDecay ? C->getSubExpr()
                                                         : nullptr;
}

LvalueBase baseOf(const Expr &L) {
  const Expr *E = &L;
  while (true) {
    E = E->IgnoreParens();
    const Expr *Pointer = nullptr;
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      if (!M->isArrow()) {
        E = M->getBase();
        continue;
      }
      Pointer = M->getBase();
    } else if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      Pointer = A->getBase();
    } else if (const auto *U = dyn_cast<UnaryOperator>(E);
               U && U->getOpcode() == UO_Deref) {
      Pointer = U->getSubExpr();
    } else if (const auto *C = dyn_cast<ImplicitCastExpr>(E);
               C && C->getCastKind() == CK_NoOp) {
      E = C->getSubExpr();
      continue;
    } else if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
      return {dyn_cast<VarDecl>(R->getDecl()), nullptr};
    } else {
      return {};
    }
    if (const Expr *Array = decayedArray(Pointer)) {
      E = Array; // An element of an array variable (or of its element).
      continue;
    }
    return {nullptr, Pointer};
  }
}

/// Whether writing \p V's own storage stays in the thread or block: a
/// local, a by-value parameter, a __shared__ variable (kernel buffers are
/// global memory).
bool isPrivateStorage(const VarDecl &V) {
  return !V.getType()->isReferenceType() &&
         (V.hasLocalStorage() || V.hasAttr<CUDASharedAttr>());
}

/// A call to a type's trivial copy or move assignment (`a = b` on structs):
/// an assignment to its first argument, nothing else.
bool isTrivialAssignment(const CallExpr &Call) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(Call.getDirectCallee());
  return Op && M && M->isTrivial() && Call.getNumArgs() == 2 &&
         (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator());
}

/// \p N when it is a whole lvalue (not the base of a `.member` or of an
/// array's element, whose use is that of the whole) of a variable or of
/// memory, and is written or its address escapes; else null.
const Expr *changedLvalue(const Stmt &N, ASTContext &Ctx) {
  const auto *E = dyn_cast<Expr>(&N);
  const auto *Ref = dyn_cast<DeclRefExpr>(&N);
  const auto *U = dyn_cast<UnaryOperator>(&N);
  bool Candidate = isa<ArraySubscriptExpr, MemberExpr>(&N) ||
                   (Ref && isa<VarDecl>(Ref->getDecl())) ||
                   (U && U->getOpcode() == UO_Deref);
  if (!Candidate || !E->isLValue())
    return nullptr;
  DynTypedNode Parent = parentOf(DynTypedNode::create(N), Ctx);
  while (Parent.get<ParenExpr>())
    Parent = parentOf(Parent, Ctx);
  if (const auto *M = Parent.get<MemberExpr>(); M && !M->isArrow())
    return nullptr;
  if (const auto *C = Parent.get<ImplicitCastExpr>();
      C && C->getCastKind() == CK_ArrayToPointerDecay)
    return nullptr;
  return lvalueUseOf(*E, Ctx) == LvalueUse::Read ? nullptr : E;
}

/// Decides whether calls change nothing but the caller's locals: pure math,
/// CUDA library functions taking no pointers, and functions of the
/// translation unit whose bodies (and calls, a few levels deep) only
/// change their own locals and the callers' locals bound to their
/// non-const reference parameters.
class LocalOnlyCalls {
public:
  explicit LocalOnlyCalls(ASTContext &Ctx) : Ctx(Ctx) {}

  /// \p Call, made in \p Caller.
  bool check(const CallExpr &Call, const FunctionDecl *Caller,
             unsigned Depth = 0) const;

private:
  bool isPrivate(const Expr &L, const FunctionDecl *Fn) const;
  bool bodyChangesOnlyLocals(const FunctionDecl &Fn, unsigned Depth) const;
  bool changesOnlyLocals(const Stmt *S, const FunctionDecl &Fn,
                         unsigned Depth) const;

  ASTContext &Ctx;
};

/// Whether the lvalue \p L is storage private to the thread as seen from
/// \p Fn: one of its locals, or what one of its reference parameters is
/// bound to (callers bind them to their own locals only).
bool LocalOnlyCalls::isPrivate(const Expr &L, const FunctionDecl *Fn) const {
  LvalueBase B = baseOf(L);
  if (!B.Var)
    return false;
  if (const auto *P = dyn_cast<ParmVarDecl>(B.Var);
      P && Fn && P->getDeclContext() == Fn && P->getType()->isReferenceType())
    return true;
  return isPrivateStorage(*B.Var);
}

bool LocalOnlyCalls::check(const CallExpr &Call, const FunctionDecl *Caller,
                           unsigned Depth) const {
  const FunctionDecl *F = Call.getDirectCallee();
  if (!F || Depth > 8 || isCooperativeCall(Call))
    return false;
  if (isPureMathCall(Call, Ctx))
    return true;
  if (isTrivialAssignment(Call))
    return isPrivate(*Call.getArg(0), Caller);
  if (F->isVariadic() || !F->getIdentifier() ||
      F->getName().starts_with("atomic") ||
      F->getName().starts_with("__threadfence"))
    return false;
  for (unsigned I = 0; I < Call.getNumArgs() && I < F->getNumParams(); ++I) {
    QualType T = F->getParamDecl(I)->getType();
    if (T->isPointerType())
      return false;
    if (T->isReferenceType() && !T->getPointeeType().isConstQualified() &&
        !isPrivate(*Call.getArg(I), Caller))
      return false;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  if (F->getBuiltinID() ||
      SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
    return true;
  const FunctionDecl *Def = F->getDefinition();
  return Def && Def->hasBody() && bodyChangesOnlyLocals(*Def, Depth + 1);
}

bool LocalOnlyCalls::bodyChangesOnlyLocals(const FunctionDecl &Fn,
                                           unsigned Depth) const {
  return changesOnlyLocals(Fn.getBody(), Fn, Depth);
}

bool LocalOnlyCalls::changesOnlyLocals(const Stmt *S, const FunctionDecl &Fn,
                                       unsigned Depth) const {
  bool Ok = true;
  forEachNode(S, [&](const Stmt *N) {
    if (!Ok)
      return;
    if (const Expr *E = changedLvalue(*N, Ctx)) {
      Ok = isPrivate(*E, &Fn);
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(N))
      Ok = check(*Call, &Fn, Depth);
    else if (const auto *C = dyn_cast<CXXConstructExpr>(N))
      Ok = C->getConstructor()->isTrivial();
    else if (isa<CXXNewExpr, CXXDeleteExpr, AsmStmt>(N))
      Ok = false;
  });
  return Ok;
}

/// Whether \p Call is a CUDA atomic, which writes only through its pointer
/// argument.
bool isLibraryAtomic(const CallExpr &Call, const ASTContext &Ctx) {
  const FunctionDecl *F = Call.getDirectCallee();
  const SourceManager &SM = Ctx.getSourceManager();
  return F && F->getIdentifier() && F->getName().starts_with("atomic") &&
         (F->getBuiltinID() ||
          SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())));
}

} // namespace

LoopWrites::LoopWrites(const Stmt &Body, const FunctionDecl &Kernel,
                       ASTContext &Ctx)
    : Kernel(Kernel), Ctx(Ctx) {
  visit(&Body);
}

std::optional<LoopWrites::Write>
LoopWrites::classifyVar(const VarDecl &V, const Stmt &Where) const {
  if (isPrivateStorage(V))
    return std::nullopt;
  if (V.getType()->isReferenceType())
    return Write{&Where, Target::Anywhere, nullptr,
                 "this store goes through the reference '" +
                     V.getName().str() + "'"};
  return Write{&Where, Target::Static, nullptr,
               "this store writes '" + V.getName().str() +
                   "', a variable of static storage,"};
}

std::optional<LoopWrites::Write>
LoopWrites::classify(const Expr &Pointer, const Stmt &Where) const {
  // `&p[i]` (an atomic's argument) points where `p` does.
  if (const auto *U = dyn_cast<UnaryOperator>(Pointer.IgnoreParenCasts());
      U && U->getOpcode() == UO_AddrOf)
    return classifyLvalue(*U->getSubExpr(), Where);
  const VarDecl *V = pointerVariableOf(Pointer);
  if (V && V->getType()->isArrayType())
    return classifyVar(*V, Where);
  if (V)
    if (auto Root = bufferRootOf(*V, Kernel, Ctx))
      return Write{&Where, Target::Buffer, Root->Param, ""};
  return Write{&Where, Target::Anywhere, nullptr,
               "this store goes through a pointer whose buffer is unknown"};
}

std::optional<LoopWrites::Write>
LoopWrites::classifyLvalue(const Expr &Lvalue, const Stmt &Where) const {
  LvalueBase B = baseOf(Lvalue);
  if (B.Pointer)
    return classify(*B.Pointer, Where);
  if (B.Var)
    return classifyVar(*B.Var, Where);
  return Write{&Where, Target::Anywhere, nullptr,
               "this store writes memory the analysis cannot follow"};
}

void LoopWrites::noteElementWrite(const Expr &Element) {
  if (auto W = classifyLvalue(Element, Element))
    Writes.push_back(std::move(*W));
}

void LoopWrites::noteCall(const CallExpr &Call) {
  if (isTrivialAssignment(Call)) {
    noteElementWrite(*Call.getArg(0));
    return;
  }
  if (isLibraryAtomic(Call, Ctx)) {
    for (const Expr *Arg : Call.arguments())
      if (Arg->getType()->isPointerType())
        if (auto W = classify(*Arg, Call))
          Writes.push_back(std::move(*W));
    return;
  }
  if (LocalOnlyCalls(Ctx).check(Call, &Kernel))
    return;
  const FunctionDecl *F = Call.getDirectCallee();
  std::string Name = F && F->getIdentifier()
                         ? "this call to '" + F->getName().str() + "'"
                         : std::string("this call");
  Writes.push_back(
      {&Call, Target::Anywhere, nullptr, Name + " may write memory"});
}

void LoopWrites::visit(const Stmt *Body) {
  forEachNode(Body, [&](const Stmt *N) {
    if (const Expr *E = changedLvalue(*N, Ctx)) {
      noteElementWrite(*E);
    } else if (const auto *Call = dyn_cast<CallExpr>(N)) {
      noteCall(*Call);
    } else if (const auto *C = dyn_cast<CXXConstructExpr>(N);
               C && !C->getConstructor()->isTrivial()) {
      Writes.push_back({C, Target::Anywhere, nullptr,
                        "this constructor may write memory"});
    } else if (isa<CXXNewExpr, CXXDeleteExpr, AsmStmt>(N)) {
      Writes.push_back(
          {N, Target::Anywhere, nullptr, "this statement may write memory"});
    }
  });
}

llvm::Error LoopWrites::overlap(const Write &W, const ParmVarDecl &Buffer) {
  std::string Name = "'" + Buffer.getName().str() + "'";
  std::string Ahead = "; the vector loads would read its elements ahead of "
                      "the write";
  bool Restricted = Buffer.getType().isRestrictQualified();
  SourceLocation Loc = W.Where->getBeginLoc();
  switch (W.Kind) {
  case Target::Anywhere:
    return illegalAt(Loc, Ctx, W.What + ", maybe " + Name + Ahead);
  case Target::Static:
    if (Restricted)
      return llvm::Error::success();
    return illegalAt(Loc, Ctx,
                     W.What + " which may be " + Name + " (not __restrict__)" +
                         Ahead);
  case Target::Buffer:
    break;
  }
  if (W.Root == &Buffer)
    return illegalAt(Loc, Ctx,
                     Name + " is written in the loop here (or its element's "
                            "address escapes)" +
                         Ahead);
  if (Restricted || W.Root->getType().isRestrictQualified())
    return llvm::Error::success();
  return checkDistinctBuffers(Kernel, Ctx);
}

llvm::Error LoopWrites::checkUntouched(const ParmVarDecl &Buffer) {
  for (const Write &W : Writes)
    if (llvm::Error E = overlap(W, Buffer))
      return E;
  return llvm::Error::success();
}
