//===- FastMath.cpp - CUDA's fast intrinsics in one kernel ---------------===//
//
// Replaces single-precision library calls and float divisions in a
// kernel's body by CUDA's fast intrinsics (expf -> __expf, a / b ->
// __fdividef(a, b), 1.0f / sqrtf(x) -> rsqrtf(x)), like nvcc's
// -use_fast_math but for one kernel and chosen groups of operations. The
// results change in the last bits, so the transform says so
// (changesNumerics) and each result notes that verification rests on the
// spec's tolerance. What qualifies is FastMathLegality's to decide.
//
//===----------------------------------------------------------------------===//

#include "optiml/Transform/FunctionTransform.h"
#include "transforms/FastMath/FastMathLegality.h"
#include "transforms/TransformFactories.h"

#include "optiml/Support/Error.h"

#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet> emit(const std::vector<FastMathCandidate> &Found,
                                    ASTContext &Ctx);

static llvm::Expected<std::vector<FastMathCandidate>>
candidates(const Site &S, const ParamValues &P, ASTContext &Ctx);

static llvm::Error rewrite(const FastMathCandidate &C, EditSet &Edits,
                           ASTContext &Ctx);

static llvm::Error rewriteDivision(const BinaryOperator &Div, EditSet &Edits,
                                   ASTContext &Ctx);

static llvm::Error rewriteReciprocalSqrt(const FastMathCandidate &C,
                                         EditSet &Edits, ASTContext &Ctx);

static llvm::Expected<std::vector<FastMathCandidate>>
candidates(const Site &S, const ParamValues &P, ASTContext &Ctx) {
  std::optional<FastMathOps> Ops = FastMathLegality::parseOps(P.get("ops"));
  if (!Ops)
    return makeError(ErrorKind::BadInput,
                     "fast-math: unknown ops '" + P.get("ops") + "'");
  return FastMathLegality::candidates(*S.Kernel, *Ops, Ctx);
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  auto Found = candidates(S, P, Ctx);
  if (!Found)
    return Found.takeError();
  return Rewrite([F = std::move(*Found), &Ctx] { return emit(F, Ctx); });
}

static llvm::Error replaceRange(const Stmt &Node, CharSourceRange Range,
                                std::string Text, EditSet &Edits,
                                ASTContext &Ctx) {
  return Edits.add(Node, changeTo(charRange(Range), cat(std::move(Text))), Ctx);
}

/// `a / b` -> `__fdividef(a, b)` by three edits around the operands rather
/// than one over the whole division, so that rewrites inside the operands
/// (`expf(x) / s`, nested divisions) do not overlap it.
static llvm::Error rewriteDivision(const BinaryOperator &Div, EditSet &Edits,
                                   ASTContext &Ctx) {
  auto L = FastMathLegality::writtenRange(*Div.getLHS(), Ctx);
  auto R = FastMathLegality::writtenRange(*Div.getRHS(), Ctx);
  if (!L || !R)
    return makeError(ErrorKind::NotApplicable,
                     "the division is inside a macro expansion");
  auto At = [](SourceLocation Loc) {
    return CharSourceRange::getCharRange(Loc, Loc);
  };
  if (llvm::Error E =
          replaceRange(Div, At(L->getBegin()), "__fdividef(", Edits, Ctx))
    return E;
  if (llvm::Error E = replaceRange(
          Div, CharSourceRange::getCharRange(L->getEnd(), R->getBegin()), ", ",
          Edits, Ctx))
    return E;
  return replaceRange(Div, At(R->getEnd()), ")", Edits, Ctx);
}

/// `1.0f / sqrtf(x)` -> `rsqrtf(x)`: the text up to the callee's name
/// becomes `rsqrtf` and the call's argument list stays, so rewrites inside
/// x do not overlap; parentheses around the call are dropped.
static llvm::Error rewriteReciprocalSqrt(const FastMathCandidate &C,
                                         EditSet &Edits, ASTContext &Ctx) {
  auto Whole = FastMathLegality::writtenRange(*C.Div, Ctx);
  auto Callee = FastMathLegality::writtenRange(*C.Call->getCallee(), Ctx);
  auto Call = FastMathLegality::writtenRange(*C.Call, Ctx);
  if (!Whole || !Callee || !Call)
    return makeError(ErrorKind::NotApplicable,
                     "the division is inside a macro expansion");
  if (llvm::Error E = replaceRange(
          *C.Div,
          CharSourceRange::getCharRange(Whole->getBegin(), Callee->getEnd()),
          C.Replacement, Edits, Ctx))
    return E;
  if (Call->getEnd() == Whole->getEnd())
    return llvm::Error::success();
  return replaceRange(
      *C.Div, CharSourceRange::getCharRange(Call->getEnd(), Whole->getEnd()),
      "", Edits, Ctx);
}

static llvm::Error rewrite(const FastMathCandidate &C, EditSet &Edits,
                           ASTContext &Ctx) {
  switch (C.What) {
  case FastMathCandidate::Intrinsic:
    // Only the callee's name changes; the arguments keep their own edits.
    return Edits.add(*C.Call->getCallee()->IgnoreParenImpCasts(),
                     changeTo(node(EditSet::Root.str()), cat(C.Replacement)),
                     Ctx);
  case FastMathCandidate::Divide:
    return rewriteDivision(*C.Div, Edits, Ctx);
  case FastMathCandidate::ReciprocalSqrt:
    return rewriteReciprocalSqrt(C, Edits, Ctx);
  }
  llvm_unreachable("unknown fast-math candidate");
}

static llvm::Expected<EditSet> emit(const std::vector<FastMathCandidate> &Found,
                                    ASTContext &Ctx) {
  EditSet Edits;
  bool Pow = false;
  for (const FastMathCandidate &C : Found) {
    if (llvm::Error E = rewrite(C, Edits, Ctx))
      return E;
    Pow |= C.Replacement == "__powf";
  }
  Edits.addNote("fast intrinsics change results in the last bits (more for "
                "large arguments); verification relies on the spec's "
                "tolerance");
  if (Pow)
    Edits.addNote("__powf(x, y) is NaN for x < 0, where powf is not for "
                  "integer y");
  return Edits;
}

std::unique_ptr<Transform> optiml::createFastMath(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
