//===- LoopDependence.cpp - may two parts of a loop be reordered? --------===//

#include "optiml/Analysis/Legality/LoopDependence.h"
#include "optiml/Analysis/Legality/DistinctBuffers.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/SourceText.h"

#include "clang/AST/Attr.h"

using namespace optiml;
using namespace clang;

LoopDependence::LoopDependence(const StmtAccesses &Earlier,
                               const StmtAccesses &Later, const VarDecl &IV,
                               int64_t Step, const FunctionDecl &Kernel,
                               ASTContext &Ctx)
    : Earlier(Earlier), Later(Later), IV(IV), Step(Step), Kernel(Kernel),
      Ctx(Ctx) {}

const std::optional<std::string> &LoopDependence::whyParamsMayOverlap() {
  if (!ParamsOverlap) {
    std::optional<std::string> Why;
    llvm::handleAllErrors(
        checkDistinctBuffers(Kernel, Ctx),
        [&](const LegalityError &L) { Why = L.reason(); },
        [&](const llvm::ErrorInfoBase &E) { Why = E.message(); });
    ParamsOverlap = std::move(Why);
  }
  return *ParamsOverlap;
}

bool LoopDependence::restsOnSpec() const {
  return ReliedOnDistinct && !KernelLaunches(Ctx, Kernel).showsArguments();
}

static std::string quoted(const MemoryAccess &A, const ASTContext &Ctx) {
  return "'" + textOf(A.Where->getSourceRange(), Ctx) + "'";
}

static bool isRestrict(const VarDecl &V) {
  return V.getType().isRestrictQualified();
}

std::optional<std::string> LoopDependence::sameObject(const MemoryAccess &X,
                                                      const MemoryAccess &Y,
                                                      bool &Same) {
  for (const MemoryAccess *A : {&X, &Y})
    if (!A->Root)
      return "OptiML cannot tell which buffer " + quoted(*A, Ctx) +
             " reaches (" + A->Why + ")";
  Same = X.Root == Y.Root;
  if (Same || !isa<ParmVarDecl>(X.Root) || !isa<ParmVarDecl>(Y.Root))
    return std::nullopt; // Arrays and globals are objects of their own.
  if (isRestrict(*X.Root) || isRestrict(*Y.Root))
    return std::nullopt;
  if (const std::optional<std::string> &Why = whyParamsMayOverlap())
    return "'" + X.Root->getName().str() + "' and '" + Y.Root->getName().str() +
           "' may point into the same buffer (" + *Why + ")";
  ReliedOnDistinct = true;
  return std::nullopt;
}

std::optional<std::string>
LoopDependence::variantAtom(const MemoryAccess &A) const {
  std::optional<std::string> Why;
  A.Offset->mentions([&](const IndexAtom &Atom) {
    const VarDecl *V = Atom.Var;
    if (!V || V == &IV || Why)
      return false;
    std::string Name = "'" + V->getName().str() + "'";
    if (Earlier.declares(*V) || Later.declares(*V))
      Why = "the index of " + quoted(A, Ctx) + " reads " + Name +
            ", which is declared in the loop";
    else if (Earlier.firstWrite(*V) || Later.firstWrite(*V))
      Why = "the index of " + quoted(A, Ctx) + " reads " + Name +
            ", which the loop assigns";
    else if (V->hasGlobalStorage() && !V->getType().isConstQualified() &&
             !V->hasAttr<CUDAConstantAttr>())
      Why = "the index of " + quoted(A, Ctx) + " reads " + Name +
            ", which is in memory";
    return Why.has_value();
  });
  return Why;
}

static DependenceConflict conflict(const MemoryAccess &Later,
                                   const MemoryAccess &Earlier,
                                   DependenceConflict::Kind K,
                                   std::string Why = "", int64_t Distance = 0) {
  return DependenceConflict{&Later, &Earlier, K, Distance, std::move(Why)};
}

std::optional<DependenceConflict> LoopDependence::test(const MemoryAccess &La,
                                                       const MemoryAccess &Eb) {
  using C = DependenceConflict;
  if (!La.Writes && !Eb.Writes)
    return std::nullopt;
  bool Same = false;
  if (auto Why = sameObject(La, Eb, Same))
    return conflict(La, Eb, C::Unproven, *Why);
  if (!Same)
    return std::nullopt;
  for (const MemoryAccess *A : {&La, &Eb}) {
    if (!A->Offset)
      return conflict(La, Eb, C::Unproven,
                      "the index of " + quoted(*A, Ctx) + " is unknown (" +
                          A->Why + ")");
    if (auto Why = variantAtom(*A))
      return conflict(La, Eb, C::Unproven, *Why);
  }
  IndexAtom I = IndexAtom::of(IV);
  auto Ca = La.Offset->coefficient(I), Cb = Eb.Offset->coefficient(I);
  std::string Name = "'" + IV.getName().str() + "'";
  if (!Ca || !Cb)
    return conflict(La, Eb, C::Unproven, "an index is not linear in " + Name);
  if (!(*Ca == *Cb))
    return conflict(La, Eb, C::Unproven,
                    "their indices move with " + Name +
                        " at different strides ('" + Ca->str() + "' and '" +
                        Cb->str() + "')");
  std::optional<int64_t> Stride = Ca->asConstant();
  if (!Stride)
    return conflict(La, Eb, C::Unproven,
                    "their stride in " + Name + ", '" + Ca->str() +
                        "', is not a constant and may be zero");
  auto WithoutI = [&](const IndexPolynomial::Monomial &M) {
    return !llvm::is_contained(M, I);
  };
  IndexPolynomial D = Eb.Offset->select(WithoutI) - La.Offset->select(WithoutI);
  std::optional<int64_t> Dist = D.asConstant();
  if (!Dist)
    return conflict(La, Eb, C::Unproven,
                    "their distance, '" + D.str() + "', is not a constant");
  if (*Stride == 0)
    return *Dist == 0 ? std::optional(conflict(La, Eb, C::EveryIteration))
                      : std::nullopt;
  // Stride * (i_later - i_earlier) = Dist, i_later - i_earlier = Step * k.
  int64_t PerIteration = *Stride * Step;
  if (*Dist % PerIteration != 0 || *Dist / PerIteration >= 0)
    return std::nullopt;
  return conflict(La, Eb, C::Reversed, "", -(*Dist / PerIteration));
}

std::optional<DependenceConflict> LoopDependence::firstConflict() {
  for (const MemoryAccess &La : Later.memory())
    for (const MemoryAccess &Eb : Earlier.memory())
      if (auto C = test(La, Eb))
        return C;
  return std::nullopt;
}

bool LoopDependence::mayOverlap(const MemoryAccess &X, const MemoryAccess &Y,
                                std::string &Why) {
  if (!X.Writes && !Y.Writes)
    return false;
  bool Same = false;
  if (auto Unknown = sameObject(X, Y, Same)) {
    Why = *Unknown;
    return true;
  }
  if (Same)
    Why = "both reach '" + X.Root->getName().str() + "'";
  return Same;
}

std::optional<VariableConflict> LoopDependence::firstSharedVariable(
    const StmtAccesses &A, const StmtAccesses &B, const VarDecl *Except) {
  for (const VarDecl *V : A.used()) {
    if (V == Except)
      continue;
    if (const DeclRefExpr *W = A.firstWrite(*V))
      if (const DeclRefExpr *U = B.firstUse(*V))
        return VariableConflict{V, W, U, true};
    if (const DeclRefExpr *W = B.firstWrite(*V))
      return VariableConflict{V, W, A.firstUse(*V), false};
  }
  return std::nullopt;
}
