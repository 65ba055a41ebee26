//===- PadSharedLegality.cpp - may a __shared__ array's rows grow? --------===//

#include "transforms/PadShared/PadSharedLegality.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/FirstRefusal.h"
#include "optiml/Analysis/Legality/IndexPolynomial.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/SharedMemory.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/AST/Attr.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <numeric>

using namespace optiml;
using namespace clang;

namespace {

/// Shared memory banks: their number and width.
constexpr unsigned Banks = 32;
constexpr unsigned BankBytes = 4;

/// `T a[R][C]` with constant R and C and a non-array T; else null.
const ConstantArrayType *asStatic2D(const VarDecl &V, ASTContext &Ctx) {
  const auto *Outer = Ctx.getAsConstantArrayType(V.getType());
  const auto *Inner =
      Outer ? Ctx.getAsConstantArrayType(Outer->getElementType()) : nullptr;
  if (!Inner || Inner->getElementType()->isArrayType())
    return nullptr;
  return Outer;
}

/// An element access `a[i][j]` of a 2-D array.
struct Element {
  const ArraySubscriptExpr *Access;
  const Expr *Row, *Col;
};

/// Whether \p Addr (`&a[i][j]`) is an argument of an atomic function,
/// which uses the address once and keeps nothing.
bool isAtomicArg(const Expr &Addr, ASTContext &Ctx) {
  DynTypedNode Node = parentOf(DynTypedNode::create(Addr), Ctx);
  while (Node.get<ImplicitCastExpr>())
    Node = parentOf(Node, Ctx);
  const auto *Call = Node.get<CallExpr>();
  const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && F->getName().starts_with("atomic");
}

class ArrayCheck {
public:
  ArrayCheck(const FunctionDecl &Kernel, const VarDecl &Array, ASTContext &Ctx)
      : Kernel(Kernel), Array(Array), Ctx(Ctx) {}

  /// Success when \p Array may be padded by \p Pad and that helps.
  llvm::Error run(unsigned Pad);

private:
  llvm::Error collectUses();
  /// The worst bank conflict of the warp's column accesses with \p Columns
  /// elements a row (1 when none conflict).
  unsigned worstConflict(uint64_t Columns) const;
  std::string name() const { return "'" + Array.getName().str() + "'"; }

  const FunctionDecl &Kernel;
  const VarDecl &Array;
  ASTContext &Ctx;
  std::vector<Element> Elements;
};

llvm::Error ArrayCheck::collectUses() {
  for (const DeclRefExpr *Use : usesOf(Array, *Kernel.getBody(), Ctx)) {
    // a -> a[i] -> a[i][j], each subscript's base through the decay.
    DynTypedNode Node = DynTypedNode::create(*Use);
    const ArraySubscriptExpr *Levels[2] = {nullptr, nullptr};
    for (const ArraySubscriptExpr *&Level : Levels) {
      DynTypedNode Cast = parentOf(Node, Ctx);
      const auto *Decay = Cast.get<ImplicitCastExpr>();
      const auto *Sub = Decay && Decay->getCastKind() == CK_ArrayToPointerDecay
                            ? parentOf(Cast, Ctx).get<ArraySubscriptExpr>()
                            : nullptr;
      if (!Sub || Sub->getBase() != Decay)
        break;
      Level = Sub;
      Node = DynTypedNode::create(*Sub);
    }
    if (!Levels[1])
      return illegalAt(Use->getBeginLoc(), Ctx,
                       name() + " is used here other than as an element " +
                           Array.getName() +
                           "[i][j], which would see the "
                           "padding");
    DynTypedNode Parent = parentOf(Node, Ctx);
    while (Parent.get<ParenExpr>())
      Parent = parentOf(Parent, Ctx);
    if (const auto *U = Parent.get<UnaryOperator>();
        U && U->getOpcode() == UO_AddrOf && !isAtomicArg(*U, Ctx))
      return illegalAt(U->getBeginLoc(), Ctx,
                       "the address of an element of " + name() +
                           " is taken here; a pointer into it may walk "
                           "across rows, which the padding moves");
    Elements.push_back({Levels[1], Levels[0]->getIdx(), Levels[1]->getIdx()});
  }
  return llvm::Error::success();
}

unsigned ArrayCheck::worstConflict(uint64_t Columns) const {
  uint64_t ElementBytes =
      Ctx.getTypeSizeInChars(Ctx.getBaseElementType(Array.getType()))
          .getQuantity();
  unsigned Worst = 1;
  IndexAtom Lane = IndexAtom::of(BuiltinRef{BuiltinRef::ThreadIdx, 0});
  auto Stride = [&](const Expr &E) -> std::optional<int64_t> {
    auto P = IndexPolynomial::of(E, Ctx);
    if (!P) {
      llvm::consumeError(P.takeError());
      return std::nullopt;
    }
    auto C = P->coefficient(Lane);
    return C ? C->asConstant() : std::nullopt;
  };
  for (const Element &E : Elements) {
    auto RowStride = Stride(*E.Row), ColStride = Stride(*E.Col);
    if (!RowStride || !ColStride || *RowStride == 0)
      continue;
    // Lanes one threadIdx.x apart are this many words apart; a conflict is
    // how many lanes share a bank beyond the words each element spans.
    int64_t Words = std::abs(*RowStride * (int64_t)Columns + *ColStride) *
                    (int64_t)ElementBytes / BankBytes;
    if (Words == 0)
      continue;
    unsigned Span = std::max<uint64_t>(1, ElementBytes / BankBytes);
    unsigned Degree = std::gcd<uint64_t>(Words, Banks) / Span;
    Worst = std::max(Worst, Degree);
  }
  return Worst;
}

llvm::Error ArrayCheck::run(unsigned Pad) {
  const ConstantArrayType *Outer = asStatic2D(Array, Ctx);
  uint64_t Columns =
      Ctx.getAsConstantArrayType(Outer->getElementType())->getZExtSize();
  QualType Elem = Ctx.getBaseElementType(Array.getType());
  if (Ctx.getTypeSizeInChars(Elem).getQuantity() < BankBytes)
    return notApplicableAt(Array.getLocation(), Ctx,
                           "the elements of " + name() +
                               " are narrower than a bank's 4 bytes");
  if (llvm::Error E = collectUses())
    return E;
  unsigned Before = worstConflict(Columns);
  if (Before == 1)
    return notApplicableAt(Array.getLocation(), Ctx,
                           "no access of " + name() +
                               " reads down a column with lanes in the same "
                               "bank (a row index that varies with "
                               "threadIdx.x)");
  unsigned After = worstConflict(Columns + Pad);
  if (After >= Before)
    return notApplicableAt(Array.getLocation(), Ctx,
                           "padding the rows of " + name() + " by " +
                               llvm::Twine(Pad) +
                               " leaves its column accesses " +
                               llvm::Twine(After) + "-way bank-conflicted");
  TypeLoc TL = Array.getTypeSourceInfo()->getTypeLoc();
  auto OuterLoc = TL.getAs<ConstantArrayTypeLoc>();
  if (OuterLoc.isNull() ||
      OuterLoc.getElementLoc().getAs<ConstantArrayTypeLoc>().isNull())
    return notApplicableAt(Array.getLocation(), Ctx,
                           "the dimensions of " + name() +
                               " are not written in its declaration");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<PadSharedPlan>
PadSharedLegality::check(const Site &S, unsigned Pad, ASTContext &Ctx) {
  const FunctionDecl &Kernel = *S.Kernel;
  PadSharedPlan Plan;
  Plan.Pad = Pad;
  std::vector<const VarDecl *> Shared = sharedVariables(Kernel);
  // The first refusal is the one reported when no array can be padded.
  FirstRefusal Refusals;
  auto Refuse = [&](llvm::Error E) { Refusals.note(std::move(E)); };
  uint64_t Bytes = staticSharedBytes(Kernel, Ctx);
  for (const VarDecl *V : Shared) {
    if (V->getType()->isDependentType()) {
      Refuse(notApplicableAt(V->getLocation(), Ctx,
                             "the size of '" + V->getName() +
                                 "' depends on a template parameter"));
      continue;
    }
    if (!asStatic2D(*V, Ctx))
      continue;
    if (!V->isLocalVarDecl()) {
      Refuse(notApplicableAt(V->getLocation(), Ctx,
                             "'" + V->getName() +
                                 "' is declared outside the kernel, where "
                                 "other functions may rely on its layout"));
      continue;
    }
    if (llvm::Error E = ArrayCheck(Kernel, *V, Ctx).run(Pad)) {
      Refuse(std::move(E));
      continue;
    }
    const auto *Outer = Ctx.getAsConstantArrayType(V->getType());
    uint64_t Extra =
        Outer->getZExtSize() * Pad *
        Ctx.getTypeSizeInChars(Ctx.getBaseElementType(V->getType()))
            .getQuantity();
    if (Bytes + Extra > StaticSharedLimit) {
      Refuse(illegalAt(V->getLocation(), Ctx,
                       "padding '" + V->getName() + "' brings '" +
                           Kernel.getName() + "' to " +
                           llvm::Twine(Bytes + Extra) +
                           " bytes of static shared memory, over the " +
                           llvm::Twine(StaticSharedLimit) + " allowed"));
      continue;
    }
    Bytes += Extra;
    Plan.Arrays.push_back(V);
  }
  if (!Plan.Arrays.empty())
    return Plan;
  return Refusals.take(
      notApplicableAt(Kernel.getLocation(), Ctx,
                      "'" + Kernel.getName() +
                          "' declares no statically sized 2-D __shared__ "
                          "array"));
}
