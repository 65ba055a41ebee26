//===- WhileToFor.cpp - a counted while-loop written as a for-loop --------===//
//
//   int tid = blockIdx.x * blockDim.x + threadIdx.x;
//   while (tid < n) {                       for (int tid = ...; tid < n;
//     temp += a[tid] * b[tid];        =>         tid += blockDim.x * gridDim.x)
//     { tid += blockDim.x * gridDim.x;          temp += a[tid] * b[tid];
//   }                                       }
//
// The same iterations in the same order; the for-loop is what unroll,
// tile, vectorize-loop and the other loop transforms read.
// WhileToForLegality decides.
//
//===----------------------------------------------------------------------===//

#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/ReturnFoldText.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/TransformFactories.h"
#include "transforms/WhileToFor/WhileToForLegality.h"

#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

/// [Begin, End) of \p S's whole line(s) when nothing else is written on
/// them, else of \p S through its `;`.
static std::pair<unsigned, unsigned> lineExtent(const Stmt &S, bool WithSemi,
                                                ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  unsigned Begin = offsetOf(S.getBeginLoc(), Ctx);
  unsigned End = endOffsetOf(S, WithSemi, Ctx);
  unsigned LineBegin = Begin, LineEnd = End;
  while (LineBegin > 0 &&
         (Buf[LineBegin - 1] == ' ' || Buf[LineBegin - 1] == '\t'))
    --LineBegin;
  while (LineEnd < Buf.size() && (Buf[LineEnd] == ' ' || Buf[LineEnd] == '\t'))
    ++LineEnd;
  bool OwnLine = (LineBegin == 0 || Buf[LineBegin - 1] == '\n') &&
                 (LineEnd == Buf.size() || Buf[LineEnd] == '\n');
  if (!OwnLine)
    return {Begin, End};
  return {LineBegin, LineEnd < Buf.size() ? LineEnd + 1 : LineEnd};
}

static llvm::Expected<EditSet> emit(const WhileToForPlan &P, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  auto Text = [&](const Stmt &S, bool WithSemi) {
    return Buf
        .slice(offsetOf(S.getBeginLoc(), Ctx), endOffsetOf(S, WithSemi, Ctx))
        .str();
  };
  std::string Init;
  EditSet Edits;
  if (P.Declaration) {
    // `int tid = ...;` moves into the for-init.
    Init = Text(*P.Declaration, false);
    if (!Init.empty() && Init.back() == ';')
      Init.pop_back();
    auto [Begin, End] = lineExtent(*P.Declaration, true, Ctx);
    if (llvm::Error E = Edits.addText(SM, Begin, End - Begin, ""))
      return std::move(E);
  }
  // The header: `while (C)` up to the body becomes `for (I; C; STEP)`.
  unsigned HeadBegin = offsetOf(P.Loop->getBeginLoc(), Ctx);
  unsigned BodyBegin = offsetOf(P.Loop->getBody()->getBeginLoc(), Ctx);
  std::string Head = "for (" + Init + "; " + Text(*P.Loop->getCond(), false) +
                     "; " + Text(*P.Step, false) + ") ";
  if (llvm::Error E = Edits.addText(SM, HeadBegin, BodyBegin - HeadBegin, Head))
    return std::move(E);
  auto [Begin, End] = lineExtent(*P.Step, true, Ctx);
  if (llvm::Error E = Edits.addText(SM, Begin, End - Begin, ""))
    return std::move(E);
  return Edits;
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                                    ASTContext &Ctx) {
  return Rewrite::of(WhileToForLegality::check(*S.Loop, S.Name, *S.Kernel, Ctx),
                     [&Ctx](const auto &P) { return emit(P, Ctx); });
}

std::unique_ptr<Transform> optiml::createWhileToFor(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
