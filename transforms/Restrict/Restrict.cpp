//===- Restrict.cpp - `__restrict__` and `const` on kernel buffers -------===//
//
// Promises the compiler that the kernel's buffers do not overlap
// (`__restrict__` on every pointer parameter) and that the ones it only
// reads stay unchanged (`const` on their element type), which lets it keep
// values in registers and load through the read-only cache. The promise is
// checked against the launches in the file (RestrictLegality); with none,
// the result rests on the kernel spec and says so.
//
//===----------------------------------------------------------------------===//

#include "optiml/Transform/FunctionTransform.h"
#include "transforms/TransformFactories.h"

#include "optiml/Analysis/Legality/BufferAccess.h"
#include "optiml/Analysis/Legality/KernelLaunches.h"
#include "transforms/Restrict/RestrictLegality.h"

#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet> emit(const FunctionDecl &K, ASTContext &Ctx);

static llvm::Error qualify(const ParmVarDecl &P, bool AddConst,
                           bool AddRestrict, EditSet &Edits, ASTContext &Ctx);

using MatchResult = ast_matchers::MatchFinder::MatchResult;

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                                    ASTContext &Ctx) {
  if (llvm::Error E = RestrictLegality::check(*S.Kernel, Ctx))
    return E;
  return Rewrite([&K = *S.Kernel, &Ctx] { return emit(K, Ctx); });
}

/// The pointer declarator of a parameter as written (`float *p`,
/// `float *const p`); null when it is hidden behind a typedef or macro.
static PointerTypeLoc pointerLoc(const ParmVarDecl &P) {
  if (!P.getTypeSourceInfo())
    return PointerTypeLoc();
  TypeLoc TL = P.getTypeSourceInfo()->getTypeLoc().getUnqualifiedLoc();
  return TL.getAs<PointerTypeLoc>();
}

/// Before the element type: `float *p` -> `|float *p`.
static llvm::Expected<CharSourceRange> pointeeStart(const MatchResult &R) {
  const auto *P = R.Nodes.getNodeAs<ParmVarDecl>(EditSet::Root);
  SourceLocation L = pointerLoc(*P).getPointeeLoc().getBeginLoc();
  return CharSourceRange::getCharRange(L, L);
}

/// Right after the `*`: `float *p` -> `float *|p`.
static llvm::Expected<CharSourceRange> afterStar(const MatchResult &R) {
  const auto *P = R.Nodes.getNodeAs<ParmVarDecl>(EditSet::Root);
  SourceLocation L = pointerLoc(*P).getStarLoc().getLocWithOffset(1);
  return CharSourceRange::getCharRange(L, L);
}

static llvm::Error qualify(const ParmVarDecl &P, bool AddConst,
                           bool AddRestrict, EditSet &Edits, ASTContext &Ctx) {
  if (AddConst)
    if (llvm::Error E = Edits.add(
            P, changeTo(RangeSelector(pointeeStart), cat("const ")), Ctx))
      return E;
  if (AddRestrict)
    return Edits.add(
        P,
        changeTo(RangeSelector(afterStar),
                 cat(P.getName().empty() ? "__restrict__" : "__restrict__ ")),
        Ctx);
  return llvm::Error::success();
}

static llvm::Expected<EditSet> emit(const FunctionDecl &K, ASTContext &Ctx) {
  BufferAccess Access(K, Ctx);
  EditSet Edits;
  for (unsigned I = 0; I < K.getNumParams(); ++I) {
    const ParmVarDecl &P = *K.getParamDecl(I);
    QualType T = P.getType();
    if (!T->isPointerType() || pointerLoc(P).isNull())
      continue;
    QualType Pointee = T->getPointeeType();
    bool AddConst = !Pointee.isConstQualified() && !Pointee->isPointerType() &&
                    !Access.mayWrite(P);
    bool AddRestrict = !T.isRestrictQualified();
    // A parameter's type is part of the function's: every declaration
    // changes alike.
    for (const FunctionDecl *D : K.redecls())
      if (I < D->getNumParams() && !pointerLoc(*D->getParamDecl(I)).isNull())
        if (llvm::Error E =
                qualify(*D->getParamDecl(I), AddConst, AddRestrict, Edits, Ctx))
          return E;
  }
  if (!KernelLaunches(Ctx, K).showsArguments())
    Edits.addNote("'" + K.getNameAsString() +
                  "' is not launched in this file: __restrict__ relies on the "
                  "kernel spec's buffers being distinct");
  return Edits;
}

std::unique_ptr<Transform> optiml::createRestrict(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
