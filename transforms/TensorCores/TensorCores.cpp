//===- TensorCores.cpp - a matrix product on the tensor cores ------------===//
//
//   // block (16, 16), grid (ceil(n / 16), ceil(m / 16)): one thread per
//   C[row][col] for (int i = 0; i < k; ++i)
//     acc += A[row * k + i] * B[i * n + col];
//   C[row * n + col] = acc;
// becomes, for tile=64
//   // block (32, 4), grid (ceil(n / 64), ceil(m / 64)): a warp per 32 x 32
//   for (int optiml_k0 = 0; optiml_k0 < k; optiml_k0 += 32) {
//     ... the block stages A's 64 x 32 and B's 32 x 64 tiles, rounded ...
//     ... each warp multiplies its 2 x 2 wmma fragments of 16 x 16 ...
//   }
//   ... each warp stores a fragment and runs the kernel's own statements
//       for each of its elements, with `acc += optiml_sum` for the loop ...
//
// TensorCoresLegality decides; WmmaPrinter writes the body; the launches
// and the kernel's mark get the new block and grid.
//
//===----------------------------------------------------------------------===//

#include "transforms/TensorCores/TensorCoresLegality.h"
#include "transforms/TensorCores/WmmaPrinter.h"
#include "transforms/TransformFactories.h"

#include "optiml/Rewrite/GridRescale.h"
#include "optiml/Rewrite/MarkLaunchRewrite.h"
#include "optiml/Transform/FunctionTransform.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet> emit(const TensorCoresPlan &Plan,
                                    ASTContext &Ctx);

/// The inputs' own precision when they are __half or __nv_bfloat16; for
/// float, tf32 when the mark's tolerance admits it, else tf32x3.
static ParamValues defaults(const TransformDescriptor &, ParamValues V,
                            const Site &S, ASTContext &Ctx) {
  auto Nest = MatmulNest::analyze(*S.Kernel, *S.Loop, S.Name, Ctx);
  if (!Nest) {
    llvm::consumeError(Nest.takeError());
    return V;
  }
  V.set("precision", TensorCoresLegality::suggestedPrecision(*Nest, Ctx));
  return V;
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  return Rewrite::of(TensorCoresLegality::check(S, P, Ctx),
                     [&Ctx](const auto &Plan) { return emit(Plan, Ctx); });
}

/// Whether the line \p Line is an `#include` directive, of <mma.h> when
/// \p OfMma.
static bool isInclude(llvm::StringRef Line, bool OfMma) {
  Line = Line.ltrim(" \t");
  if (!Line.consume_front("#"))
    return false;
  Line = Line.ltrim(" \t");
  if (!Line.consume_front("include"))
    return false;
  return !OfMma || Line.trim().starts_with("<mma.h>");
}

/// `#include <mma.h>` above the file's first include (or at its top),
/// unless the file includes it already.
static llvm::Error includeMma(EditSet &Edits, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  std::optional<size_t> First;
  for (size_t Line = 0; Line < Buf.size();) {
    size_t NL = Buf.find('\n', Line);
    llvm::StringRef Text = Buf.slice(Line, NL);
    if (isInclude(Text, /*OfMma=*/true))
      return llvm::Error::success();
    if (!First && isInclude(Text, /*OfMma=*/false))
      First = Line;
    Line = NL == llvm::StringRef::npos ? Buf.size() : NL + 1;
  }
  return Edits.addText(SM, First.value_or(0), 0, "#include <mma.h>\n");
}

/// Every launch and the mark: block (32, warps), grid ceil(N / Tile) in x
/// and y.
static llvm::Error rewriteLaunches(const TensorCoresPlan &Plan, EditSet &Edits,
                                   ASTContext &Ctx) {
  const FunctionDecl &K = *Plan.Nest.Kernel;
  Dim3 Block = Plan.block(), Tile = {Plan.Tile, Plan.Tile, 1};
  std::vector<SourceRange> Replaced = gridTextReplaced(K, Plan.Launches, Ctx);
  llvm::SmallPtrSet<const VarDecl *, 4> Done;
  for (const LaunchShape &S : Plan.Launches) {
    if (llvm::Error E =
            rewriteLaunchBlock(K, S, Block, Replaced, Edits, Done, Ctx))
      return E;
    if (llvm::Error E = rewriteGrid(K, S, Tile, Edits, Done, Ctx))
      return E;
  }
  return rewriteMarkTiles(K, Block, Tile, Edits, Ctx);
}

static llvm::Expected<EditSet> emit(const TensorCoresPlan &Plan,
                                    ASTContext &Ctx) {
  auto Body = WmmaPrinter(Plan, Ctx).print();
  if (!Body)
    return Body.takeError();
  EditSet Edits;
  if (llvm::Error E = Edits.add(
          *Plan.Nest.Body,
          changeTo(node(EditSet::Root.str()), cat(std::move(*Body))), Ctx))
    return E;
  if (llvm::Error E = rewriteLaunches(Plan, Edits, Ctx))
    return E;
  if (llvm::Error E = includeMma(Edits, Ctx))
    return E;
  return Edits;
}

std::unique_ptr<Transform> optiml::createTensorCores(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan, defaults);
}
