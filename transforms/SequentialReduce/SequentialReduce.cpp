//===- SequentialReduce.cpp - an interleaved tree made sequential ---------===//
//
// The CUDA samples' first reduction pairs neighbours: at stride s the
// threads whose index is a multiple of 2s add buf[t + s], so the active
// threads spread over every warp (divergence in all of them) and collide
// on shared-memory banks. The halving tree pairs buf[t] with buf[t + s] for
// the first s threads instead: whole warps idle, no conflicts, and warp
// shuffles can finish it (warp-reduce). Both sum buf[0, blockDim.x) into
// buf[0] for a power-of-two block, in another order: the transform changes
// numerics. WarpReduceLegality::analyzeInterleaved decides where it
// applies.
//
//===----------------------------------------------------------------------===//

#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/ReturnFoldText.h"
#include "optiml/Rewrite/TestedAlternative.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/TransformFactories.h"
#include "transforms/WarpReduce/WarpReduceLegality.h"

#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

/// The halving loop, with the step as the user wrote it.
static std::string halvingLoop(const TreeReduction &R, ASTContext &Ctx) {
  const auto *If =
      cast<IfStmt>(cast<CompoundStmt>(R.Loop->getBody())->body_front());
  std::string Step = writtenText(*If->getThen(), Ctx);
  if (!isa<CompoundStmt>(If->getThen()))
    Step += ";";
  // Spelled from the AST: the guard may have written it through a macro.
  const auto *Var = dyn_cast<DeclRefExpr>(R.Thread);
  std::string T = Var ? Var->getDecl()->getNameAsString() : "threadIdx.x";
  std::string S = R.Stride->getNameAsString();
  std::string Type = R.Stride->getType().getAsString(Ctx.getPrintingPolicy());
  return "for (" + Type + " " + S + " = blockDim.x / 2; " + S + " > 0; " + S +
         " >>= 1) {\n  if (" + T + " < " + S + ")\n    " +
         indentedBy(Step, "  ") + "\n  __syncthreads();\n}";
}

static llvm::Expected<EditSet> emit(const Site &S, const TreeReduction &R,
                                    ASTContext &Ctx) {
  EditSet Edits;
  if (R.TestBlockAtRunTime) {
    std::string In = lineIndentOf(R.Loop->getBeginLoc(), Ctx);
    if (llvm::Error E = writeTestedAlternative(
            *R.Loop, blockTest(R, SequentialShape),
            indentedBy(halvingLoop(R, Ctx), In), Edits, Ctx))
      return E;
    Edits.addNote("some blocks of '" + S.kernelName() +
                  "' are not known here: the halving tree runs for blocks "
                  "(x, 1, 1) with x a power of two, tested at run time, the "
                  "interleaved one for others");
    return Edits;
  }
  // A loop pragma above stays: it applies to the halving loop as well.
  if (llvm::Error E = replaceWritten(*R.Loop, halvingLoop(R, Ctx),
                                     /*WithPragma=*/false, Edits, Ctx))
    return E;
  return Edits;
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                                    ASTContext &Ctx) {
  return Rewrite::of(
      WarpReduceLegality::analyzeInterleaved(*S.Loop, S.Name, *S.Kernel, Ctx),
      [S, &Ctx](const auto &R) { return emit(S, R, Ctx); });
}

std::unique_ptr<Transform>
optiml::createSequentialReduce(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
