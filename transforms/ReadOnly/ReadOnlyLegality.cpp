//===- ReadOnlyLegality.cpp - may a buffer's loads skip coherence? --------===//

#include "transforms/ReadOnly/ReadOnlyLegality.h"
#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/BufferRoot.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/DistinctBuffers.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace optiml;
using namespace clang;

namespace {

using PointerSet = llvm::SmallPtrSet<const VarDecl *, 8>;

/// Whether \p Use leaves the pointer variable it names pointing where it
/// did or moves it within \p Based: a read of its value, `p++`, `p += k`,
/// or `p = e` with `e` based on \p Based.
bool keepsPointerIn(const DeclRefExpr &Use, const PointerSet &Based,
                    ASTContext &Ctx) {
  if (isPureRead(Use, Ctx))
    return true;
  DynTypedNode Parent = parentOf(DynTypedNode::create(Use), Ctx);
  while (Parent.get<ParenExpr>())
    Parent = parentOf(Parent, Ctx);
  if (const auto *U = Parent.get<UnaryOperator>())
    return U->isIncrementDecrementOp();
  const auto *B = Parent.get<BinaryOperator>();
  if (!B || B->getLHS()->IgnoreParens() != &Use)
    return false;
  if (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign)
    return true;
  const VarDecl *From = pointerVariableOf(*B->getRHS());
  return B->getOpcode() == BO_Assign && From && Based.contains(From);
}

/// Whether \p E, an element lvalue, is read as a value: converted to an
/// rvalue, directly or after a member of it is selected (`v[i].x`).
bool isLoaded(const Expr &E, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(E);
  while (true) {
    DynTypedNode Parent = parentOf(Node, Ctx);
    if (Parent.get<ParenExpr>()) {
      Node = Parent;
      continue;
    }
    if (const auto *M = Parent.get<MemberExpr>(); M && !M->isArrow()) {
      Node = Parent;
      continue;
    }
    const auto *C = Parent.get<ImplicitCastExpr>();
    return C && C->getCastKind() == CK_LValueToRValue;
  }
}

/// The pointer an element lvalue is reached through: `p` in `p[i]` and
/// `*(p + i)`; null for other expressions and for arrays.
const Expr *elementPointer(const Expr &E) {
  const Expr *P = nullptr;
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(&E))
    P = A->getBase();
  else if (const auto *U = dyn_cast<UnaryOperator>(&E);
           U && U->getOpcode() == UO_Deref)
    P = U->getSubExpr();
  return P && P->getType()->isPointerType() ? P : nullptr;
}

/// What the kernel does through buffer \p Buffer and the local pointers
/// based only on it.
class LoadScan {
public:
  LoadScan(const FunctionDecl &Kernel, const ParmVarDecl &Buffer,
           ASTContext &Ctx)
      : Kernel(Kernel), Buffer(Buffer), Ctx(Ctx) {}

  llvm::Expected<ReadOnlyPlan> run();

private:
  llvm::Error checkElementType();
  llvm::Error checkWrites(const BufferAccess &Access);
  llvm::Error checkOverlap(const BufferAccess &Access, ReadOnlyPlan &Plan);
  llvm::Error trackPointers();
  const Expr *globalPointerWrite();
  std::string name() const { return "'" + Buffer.getName().str() + "'"; }

  const FunctionDecl &Kernel;
  const ParmVarDecl &Buffer;
  ASTContext &Ctx;
  PointerSet Based;
};

/// The element types some `__ldg` overload of the translation unit loads.
llvm::SmallPtrSet<const Type *, 32> ldgTypes(ASTContext &Ctx) {
  llvm::SmallPtrSet<const Type *, 32> Types;
  for (const NamedDecl *D :
       Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get("__ldg")))
    if (const auto *F = dyn_cast<FunctionDecl>(D->getUnderlyingDecl()))
      if (F->getNumParams() == 1 &&
          F->getParamDecl(0)->getType()->isPointerType())
        Types.insert(F->getParamDecl(0)
                         ->getType()
                         ->getPointeeType()
                         .getCanonicalType()
                         .getUnqualifiedType()
                         .getTypePtr());
  return Types;
}

/// \p T as written in code, without `struct` (which a template's argument
/// would otherwise print with).
static std::string typeName(QualType T) {
  PrintingPolicy Policy{LangOptions()};
  Policy.SuppressTagKeyword = true;
  return T.getAsString(Policy);
}

llvm::Error LoadScan::checkElementType() {
  QualType Element = Buffer.getType()->getPointeeType();
  if (Element->isDependentType())
    return notApplicableAt(Buffer.getLocation(), Ctx,
                           "the element type of " + name() +
                               " depends on a template parameter, and no "
                               "specialization of the kernel is in the file");
  if (Element.isVolatileQualified())
    return illegalAt(Buffer.getLocation(), Ctx,
                     name() + " is volatile: its loads must see other "
                              "writers, which the read-only path does not");
  if (!ldgTypes(Ctx).contains(
          Element.getCanonicalType().getUnqualifiedType().getTypePtr()))
    return notApplicableAt(
        Buffer.getLocation(), Ctx,
        "__ldg has no overload for '" + typeName(Element.getUnqualifiedType()) +
            "' (char, short, int, long, long long and their unsigned "
            "forms, float, double, their vector types; __half with "
            "cuda_fp16.h)");
  return llvm::Error::success();
}

/// Why \p Where (from BufferAccess::writeOf) writes the buffer, in words.
std::string howWritten(const Expr &Where, llvm::StringRef Name,
                       ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(Where);
  while (true) {
    const Expr *Child = Node.get<Expr>();
    DynTypedNode Parent = parentOf(Node, Ctx);
    if (const auto *Call = Parent.get<CallExpr>()) {
      const FunctionDecl *F = Call->getDirectCallee();
      return "'" + Name.str() + "' is passed to " +
             (F && F->getIdentifier() ? "'" + F->getName().str() + "'"
                                      : std::string("a call")) +
             ", which may write through it";
    }
    if (const auto *B = Parent.get<BinaryOperator>();
        B && B->isAssignmentOp() && B->getLHS()->IgnoreParens() == Child)
      return "'" + Name.str() + "' is written here";
    if (const auto *U = Parent.get<UnaryOperator>();
        U && U->isIncrementDecrementOp())
      return "'" + Name.str() + "' is written here";
    if (!Parent.get<ParenExpr>() && !Parent.get<CastExpr>() &&
        !Parent.get<UnaryOperator>() && !Parent.get<MemberExpr>() &&
        !Parent.get<ArraySubscriptExpr>())
      return "'" + Name.str() +
             "' escapes here where the analysis cannot follow it, so it may "
             "be written";
    Node = Parent;
  }
}

llvm::Error LoadScan::checkWrites(const BufferAccess &Access) {
  if (const Expr *Where = Access.writeOf(Buffer))
    return illegalAt(Where->getBeginLoc(), Ctx,
                     howWritten(*Where, Buffer.getName(), Ctx) +
                         ": the read-only path may return stale data");
  return llvm::Error::success();
}

/// A store through, or an escape of, a pointer variable of static storage
/// (`__device__ float *g;`) or a local initialized from one: it may point
/// into any buffer.
const Expr *LoadScan::globalPointerWrite() {
  auto IsGlobalPointer = [&](const VarDecl *V) {
    for (unsigned Depth = 0; V && Depth < 8; ++Depth) {
      if (!V->getType()->isPointerType())
        return false;
      if (V->hasGlobalStorage())
        return true;
      if (isa<ParmVarDecl>(V) || !V->getInit())
        return false;
      V = pointerVariableOf(*V->getInit());
    }
    return false;
  };
  const Expr *Found = nullptr;
  forEachNode(Kernel.getBody(), [&](const Stmt *N) {
    const auto *Ref = dyn_cast<DeclRefExpr>(N);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (Found || !V || !IsGlobalPointer(V))
      return;
    // Follow the pointer to the element it reaches, as BufferAccess does.
    DynTypedNode Node = DynTypedNode::create(*Ref);
    while (true) {
      DynTypedNode Parent = parentOf(Node, Ctx);
      const auto *P = Parent.get<Expr>();
      if (P && elementPointer(*P) == Node.get<Expr>()) {
        if (!isLoaded(*P, Ctx))
          Found = P;
        return;
      }
      if (!P || !P->getType()->isPointerType() ||
          !(isa<ParenExpr, CastExpr>(P) ||
            (isa<BinaryOperator>(P) &&
             cast<BinaryOperator>(P)->isAdditiveOp())))
        break;
      Node = Parent;
    }
    if (const auto *Call = parentOf(Node, Ctx).get<CallExpr>())
      Found = Call;
  });
  return Found;
}

llvm::Error LoadScan::checkOverlap(const BufferAccess &Access,
                                   ReadOnlyPlan &Plan) {
  if (const Expr *G = globalPointerWrite())
    return illegalAt(G->getBeginLoc(), Ctx,
                     "the kernel writes through a pointer variable of static "
                     "storage here, which may point into " +
                         name());
  bool Restricted = Buffer.getType().isRestrictQualified();
  bool NeedsDistinct = false;
  for (const ParmVarDecl *P : Kernel.parameters())
    if (P != &Buffer && P->getType()->isPointerType() && Access.mayWrite(*P))
      NeedsDistinct |= !(Restricted && P->getType().isRestrictQualified());
  if (!NeedsDistinct)
    return llvm::Error::success();
  if (llvm::Error E = checkDistinctBuffers(Kernel, Ctx))
    return E;
  Plan.RestsOnSpec = !KernelLaunches(Ctx, Kernel).showsArguments();
  return llvm::Error::success();
}

/// Collects in Based the buffer and the local pointers only ever derived
/// from it; the buffer itself must stay there.
llvm::Error LoadScan::trackPointers() {
  Based.insert(&Buffer);
  std::vector<const VarDecl *> Locals;
  for (const DeclStmt *D : nodesOf<DeclStmt>(Kernel.getBody()))
    for (const Decl *Sub : D->decls())
      if (const auto *V = dyn_cast<VarDecl>(Sub);
          V && V->getType()->isPointerType() && V->getInit())
        Locals.push_back(V);
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const VarDecl *V : Locals) {
      const VarDecl *From = pointerVariableOf(*V->getInit());
      if (Based.contains(V) || !From || !Based.contains(From))
        continue;
      if (llvm::all_of(usesOf(*V, *Kernel.getBody(), Ctx),
                       [&](const DeclRefExpr *U) {
                         return keepsPointerIn(*U, Based, Ctx);
                       }))
        Changed |= Based.insert(V).second;
    }
  }
  for (const DeclRefExpr *Use : usesOf(Buffer, *Kernel.getBody(), Ctx))
    if (!keepsPointerIn(*Use, Based, Ctx))
      return illegalAt(Use->getBeginLoc(), Ctx,
                       name() + " is made to point elsewhere here, so its "
                                "loads may not reach its buffer");
  return llvm::Error::success();
}

llvm::Expected<ReadOnlyPlan> LoadScan::run() {
  if (llvm::Error E = checkElementType())
    return E;
  BufferAccess Access(Kernel, Ctx);
  if (llvm::Error E = checkWrites(Access))
    return E;
  ReadOnlyPlan Plan;
  Plan.Buffer = &Buffer;
  if (llvm::Error E = checkOverlap(Access, Plan))
    return E;
  if (llvm::Error E = trackPointers())
    return E;
  const SourceManager &SM = Ctx.getSourceManager();
  const llvm::SmallPtrSet<const Type *, 32> Loadable = ldgTypes(Ctx);
  bool InMacro = false;
  forEachNode(Kernel.getBody(), [&](const Stmt *N) {
    const auto *E = dyn_cast<Expr>(N);
    const Expr *Pointer = E ? elementPointer(*E) : nullptr;
    const VarDecl *Root = Pointer ? pointerVariableOf(*Pointer) : nullptr;
    if (!Root || !Based.contains(Root) || !isLoaded(*E, Ctx) ||
        !Loadable.contains(
            E->getType().getCanonicalType().getUnqualifiedType().getTypePtr()))
      return;
    SourceRange R = E->getSourceRange();
    if (R.getBegin().isMacroID() || R.getEnd().isMacroID() ||
        !SM.isInMainFile(R.getBegin()))
      InMacro = true;
    else
      Plan.Loads.push_back(E);
  });
  if (Plan.Loads.empty())
    return notApplicableAt(Buffer.getLocation(), Ctx,
                           "'" + Kernel.getName() + "' has no plain load of " +
                               name() + (InMacro ? " outside a macro" : "") +
                               " to route through __ldg");
  return Plan;
}

} // namespace

/// A kernel template's buffer `const T *x`: the pattern's body has no types
/// to read, so each specialization in the file (an explicit instantiation,
/// a launch) is checked instead. They must all accept and wrap the same
/// loads (an `if constexpr` could make them differ); their nodes carry the
/// pattern's source locations, which is where the edits go.
static llvm::Expected<ReadOnlyPlan>
checkSpecializations(const FunctionDecl &Pattern, const ParmVarDecl &Buffer,
                     ASTContext &Ctx) {
  std::optional<ReadOnlyPlan> First;
  const FunctionTemplateDecl *T = Pattern.getDescribedFunctionTemplate();
  if (!T)
    return LoadScan(Pattern, Buffer, Ctx).run();
  for (const FunctionDecl *F : T->specializations()) {
    unsigned I = Buffer.getFunctionScopeIndex();
    if (!F->getBody() || I >= F->getNumParams())
      continue;
    auto Plan = LoadScan(*F, *F->getParamDecl(I), Ctx).run();
    if (!Plan)
      return Plan.takeError();
    auto Ranges = [](const ReadOnlyPlan &P) {
      std::vector<SourceRange> R;
      for (const Expr *L : P.Loads)
        R.push_back(L->getSourceRange());
      return R;
    };
    if (First && Ranges(*First) != Ranges(*Plan))
      return notApplicableAt(F->getPointOfInstantiation(), Ctx,
                             "the specializations of '" + Pattern.getName() +
                                 "' load '" + Buffer.getName() +
                                 "' in different places");
    if (!First)
      First = std::move(*Plan);
  }
  if (!First)
    return LoadScan(Pattern, Buffer, Ctx).run(); // Says why not.
  First->Buffer = &Buffer;
  return *First;
}

llvm::Expected<ReadOnlyPlan> ReadOnlyLegality::check(const Site &S,
                                                     ASTContext &Ctx) {
  if (S.Loop)
    return notApplicableAt(
        S.Loop->getBeginLoc(), Ctx,
        "read-only routes every load of '" + S.Buffer->getName() +
            "' in the kernel: its "
            "site is '" +
            S.kernelName() + "/" + S.Buffer->getName() + "'");
  if (!S.Kernel->getBody())
    return notApplicableAt(S.Kernel->getLocation(), Ctx,
                           "'" + S.Kernel->getName() + "' has no body");
  if (!S.Buffer->getType()->getPointeeType()->isDependentType())
    return LoadScan(*S.Kernel, *S.Buffer, Ctx).run();
  return checkSpecializations(*S.Kernel, *S.Buffer, Ctx);
}
