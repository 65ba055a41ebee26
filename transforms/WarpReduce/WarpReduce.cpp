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

/// The blanks that start the line \p Loc is written on.
static std::string indentOf(SourceLocation Loc, const SourceManager &SM) {
  auto [File, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
  llvm::StringRef Buffer = SM.getBufferData(File);
  size_t LineStart = Buffer.rfind('\n', Offset);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  return Buffer.slice(LineStart, Offset)
      .take_while([](char C) { return C == ' ' || C == '\t'; })
      .str();
}

static std::string warpStep(const TreeReduction &R, llvm::StringRef Indent,
                            ASTContext &Ctx) {
  // Spelled from the AST: the guard may have written it through a macro.
  const auto *Var = dyn_cast<DeclRefExpr>(R.Thread);
  std::string T = Var ? Var->getDecl()->getNameAsString() : "threadIdx.x";
  std::string Buf = R.Buffer->getNameAsString();
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
  return "\n" + I + "if (" + T + " < 32) {\n" + I + "  " + Type +
         " optiml_v = " +
         R.Op.combine(Buf + "[" + T + "]", Buf + "[" + T + " + 32]") + ";\n" +
         I + "  for (int optiml_o = 16; optiml_o > 0; optiml_o /= 2)\n" + I +
         "    " + Update + ";\n" + I + "  if (" + T + " == 0)\n" + I + "    " +
         Buf + "[0] = optiml_v;\n" + I + "}\n" + I + "__syncthreads();";
}

static llvm::Expected<EditSet> emit(const Site &S, const TreeReduction &R,
                                    ASTContext &Ctx) {
  EditSet Edits;
  std::string Stop = R.Stride->getNameAsString() + " > 32";
  if (llvm::Error E =
          Edits.add(*R.Loop->getCond(),
                    changeTo(node(EditSet::Root.str()), cat(Stop)), Ctx))
    return E;
  std::string Indent = indentOf(R.Loop->getBeginLoc(), Ctx.getSourceManager());
  if (llvm::Error E = Edits.add(
          *R.Loop,
          insertAfter(node(EditSet::Root.str()), cat(warpStep(R, Indent, Ctx))),
          Ctx))
    return E;
  if (R.BlockFromMark)
    Edits.addNote("'" + S.kernelName() +
                  "' is not launched in this file: the warp step relies on "
                  "the spec's block(...)");
  return Edits;
}

std::unique_ptr<Transform> optiml::createWarpReduce(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
