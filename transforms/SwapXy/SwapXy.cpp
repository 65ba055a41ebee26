//===- SwapXy.cpp - exchange the x and y roles of the threads ------------===//
//
//   int row = blockIdx.x * blockDim.x + threadIdx.x;    // block (16, 8)
//   int col = blockIdx.y * blockDim.y + threadIdx.y;
//   out[row * n + col] = ...;       // a warp writes 2 columns of 16 rows
// becomes
//   int row = blockIdx.x * blockDim.y + threadIdx.y;    // block (8, 16)
//   int col = blockIdx.y * blockDim.x + threadIdx.x;
//   out[row * n + col] = ...;       // a warp writes 4 runs of 8 columns
//
// Each thread keeps its logical (x, y) position in the same block tile and
// the grid stays, so only the grouping into warps changes (SwapXyLegality).
//
//===----------------------------------------------------------------------===//

#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Analysis/Legality/LaunchConfig.h"
#include "optiml/Rewrite/MarkLaunchRewrite.h"
#include "optiml/Support/Error.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/SwapXy/SwapXyLegality.h"
#include "transforms/TransformFactories.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

/// The edits for a plan SwapXyLegality accepted.
static llvm::Expected<EditSet> emit(const SwapXyPlan &Plan, ASTContext &Ctx);

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  return Rewrite::of(SwapXyLegality::check(S, P, Ctx),
                     [&Ctx](const auto &Plan) { return emit(Plan, Ctx); });
}

static llvm::Error replace(const Expr &E, std::string Text, EditSet &Edits,
                           ASTContext &Ctx) {
  return Edits.add(E, changeTo(node(EditSet::Root.str()), cat(std::move(Text))),
                   Ctx);
}

/// "(a, b)" or "(a, b, c)" when c is not 1.
static std::string dimsText(const Dim3 &D) {
  std::string Text = std::to_string(D[0]) + ", " + std::to_string(D[1]);
  if (D[2] != 1)
    Text += ", " + std::to_string(D[2]);
  return Text;
}

static llvm::Expected<EditSet> emit(const SwapXyPlan &Plan, ASTContext &Ctx) {
  EditSet Edits;
  for (const Expr *E : Plan.Renamed) {
    BuiltinRef R = *asBuiltinRef(E);
    R.Dim = 1 - R.Dim;
    if (llvm::Error Err = replace(*E, R.str(), Edits, Ctx))
      return Err;
  }
  const Dim3 &Old = Plan.Block;
  Dim3 New = {Old[1], Old[0], Old[2]};
  if (New == Old)
    return Edits; // A square block: the launches stay as written.
  // The launch's own block operand only: a dim3 variable may also size the
  // grid, which keeps its value (the tiles do not move).
  for (const CUDAKernelCallExpr *Call : Plan.Launches) {
    ConfigOperand Block = LaunchConfig::operand(*Call, 1, Ctx);
    if (llvm::Error Err =
            replace(*Block.Arg, "dim3(" + dimsText(New) + ")", Edits, Ctx))
      return Err;
  }
  if (llvm::Error Err = rewriteMarkBlock(*Plan.Kernel, New, Edits, Ctx))
    return Err;
  return Edits;
}

std::unique_ptr<Transform> optiml::createSwapXy(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
