//===- WarpReduce.cpp - finish a tree reduction with warp shuffles -------===//
//
// Stops a shared-memory tree reduction at stride 64 and lets warp 0 take
// the last six steps in registers: one add of buf[t + 32], then
// __shfl_down_sync at 16, 8, 4, 2, 1, and thread 0 stores buf[0]. That
// removes five block-wide barriers and their shared-memory round trips.
// Each element is combined with the same partner in the same order as in
// the tree, so buf[0] is bitwise the same and the transform does not
// change numerics. WarpReduceLegality decides where it applies.
//
//===----------------------------------------------------------------------===//

#include "optiml/Analysis/Legality/VarUses.h"
#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/ReturnFoldText.h"
#include "optiml/Rewrite/TestedAlternative.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/TransformFactories.h"
#include "transforms/WarpReduce/WarpReduceLegality.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet> emit(const Site &S, const TreeReduction &R,
                                    ASTContext &Ctx);

/// The code that follows the shortened loop, each line indented by
/// \p Indent.
static std::string warpStep(const TreeReduction &R, llvm::StringRef Indent,
                            ASTContext &Ctx);

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                                    ASTContext &Ctx) {
  return Rewrite::of(
      WarpReduceLegality::analyze(*S.Loop, S.Name, *S.Kernel, Ctx),
      [S, &Ctx](const auto &R) { return emit(S, R, Ctx); });
}

static std::string warpStep(const TreeReduction &R, llvm::StringRef Indent,
                            ASTContext &Ctx) {
  // Spelled from the AST: the guard may have written it through a macro.
  const auto *Var = dyn_cast<DeclRefExpr>(R.Thread);
  std::string T = Var ? Var->getDecl()->getNameAsString() : "threadIdx.x";
  std::string Buf = R.Buffer->getNameAsString();
  std::string Own =
      R.Carried ? R.Carried->getNameAsString() : Buf + "[" + T + "]";
  QualType Elem = Ctx.getAsArrayType(R.Buffer->getType())->getElementType();
  std::string Type = Elem.getCanonicalType().getUnqualifiedType().getAsString(
      Ctx.getPrintingPolicy());
  std::string Shfl = "__shfl_down_sync(0xffffffffu, optiml_v, optiml_o)";
  std::string Update = R.Op.How == ReduceOp::Compound
                           ? "optiml_v " + R.Op.Spelling + "= " + Shfl
                           : "optiml_v = " + R.Op.combine("optiml_v", Shfl);
  std::string I = Indent.str();
  // Stride 32 reads shared memory once; strides 16..1 stay in registers.
  // Lanes past a partner get their own value back and compute garbage that
  // lane 0 never reads, exactly as threads t >= s idle in the tree.
  std::string Store = Buf + "[0] = optiml_v;\n";
  std::string Result = I + "  if (" + T + " == 0)\n" + I + "    " + Store;
  if (R.Carried)
    Result = I + "  if (" + T + " == 0) {\n" + I + "    " + Store + I + "    " +
             Own + " = optiml_v;\n" + I + "  }\n";
  return "\n" + I + "if (" + T + " < 32) {\n" + I + "  " + Type +
         " optiml_v = " + R.Op.combine(Own, Buf + "[" + T + " + 32]") + ";\n" +
         I + "  for (int optiml_o = 16; optiml_o > 0; optiml_o /= 2)\n" + I +
         "    " + Update + ";\n" + Result + I + "}\n" + I + "__syncthreads();";
}

/// The loop as `if (block suits) { shortened loop, warp step } else { the
/// loop as it was }`.
static llvm::Error emitTested(const TreeReduction &R, EditSet &Edits,
                              ASTContext &Ctx) {
  std::string Loop = writtenText(*R.Loop, Ctx);
  unsigned Begin = insertionOffsetOf(withPragma(*R.Loop, Ctx), Ctx);
  unsigned CondBegin = offsetOf(R.Loop->getCond()->getBeginLoc(), Ctx);
  unsigned CondEnd = endOffsetOf(*R.Loop->getCond(), false, Ctx);
  std::string Short = Loop.substr(0, CondBegin - Begin) +
                      R.Stride->getNameAsString() + " > 32" +
                      Loop.substr(CondEnd - Begin);
  std::string In = lineIndentOf(R.Loop->getBeginLoc(), Ctx);
  return writeTestedAlternative(*R.Loop, blockTest(R, WarpShape),
                                Short + warpStep(R, In, Ctx), Edits, Ctx);
}

static llvm::Expected<EditSet> emit(const Site &S, const TreeReduction &R,
                                    ASTContext &Ctx) {
  EditSet Edits;
  if (R.TestBlockAtRunTime) {
    if (llvm::Error E = emitTested(R, Edits, Ctx))
      return E;
    Edits.addNote("some blocks of '" + S.kernelName() +
                  "' are not known here: the warp step runs for blocks (x, "
                  "1, 1) it suits, tested at run time, the original tree "
                  "for others");
    return Edits;
  }
  std::string Stop = R.Stride->getNameAsString() + " > 32";
  if (llvm::Error E =
          Edits.add(*R.Loop->getCond(),
                    changeTo(node(EditSet::Root.str()), cat(Stop)), Ctx))
    return E;
  std::string Indent = lineIndentOf(R.Loop->getBeginLoc(), Ctx);
  if (llvm::Error E = Edits.add(
          *R.Loop,
          insertAfter(node(EditSet::Root.str()), cat(warpStep(R, Indent, Ctx))),
          Ctx))
    return E;
  return Edits;
}

std::unique_ptr<Transform> optiml::createWarpReduce(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
