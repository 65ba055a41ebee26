//===- AggregateAtomics.cpp - one atomicAdd per warp ----------------------===//
//
//   atomicAdd(result, local);
//
// becomes a block in which the lanes of a warp that arrive together sum
// their `local` with shuffles (`__shfl_xor_sync` when all 32 are there,
// one `__shfl_sync` per lane otherwise) and the lowest of them does
// `atomicAdd(result, sum)`: one atomic per warp instead of 32 on an address
// the memory system serializes. AggregateAtomicsLegality decides which
// atomics may be aggregated.
//
//===----------------------------------------------------------------------===//

#include "optiml/Analysis/SourceText.h"
#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/KernelIdentifiers.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/AggregateAtomics/AggregateAtomicsLegality.h"
#include "transforms/TransformFactories.h"

#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/Support/FormatVariadic.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

/// The edits for a plan AggregateAtomicsLegality accepted.
static llvm::Expected<EditSet>
emit(const Site &S, const AggregateAtomicsPlan &Plan, ASTContext &Ctx);

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                                    ASTContext &Ctx) {
  return Rewrite::of(
      AggregateAtomicsLegality::check(S, Ctx),
      [S, &Ctx](const auto &Plan) { return emit(S, Plan, Ctx); });
}

namespace {

/// The block that replaces `atomicAdd(ADDRESS, VALUE);`: the lanes that
/// arrive together sum their values (a butterfly when the warp is whole,
/// else one shuffle per lane, in lane order) and the lowest of them adds.
/// {0}..{5}: the names of the mask, the lane's value, the butterfly step,
/// the partial warp's sum, the lanes left and the lane; {6}: the element
/// type; {7} and {8}: the address and the value, as written.
constexpr llvm::StringLiteral Aggregated = R"({{
  unsigned {0} = __activemask();
  {6} {1} = {8};
  if ({0} == 0xffffffffu) {{
    for (int {2} = 16; {2} > 0; {2} /= 2)
      {1} += __shfl_xor_sync(0xffffffffu, {1}, {2});
  } else {{
    {6} {3} = 0;
    for (unsigned {4} = {0}; {4}; {4} &= {4} - 1)
      {3} += __shfl_sync({0}, {1}, __ffs({4}) - 1);
    {1} = {3};
  }
  unsigned {5} = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32;
  if ({5} == __ffs({0}) - 1)
    atomicAdd({7}, {1});
})";

/// \p Block with every line but the first indented by \p Indent.
std::string indented(llvm::StringRef Block, llvm::StringRef Indent) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Block.split(Lines, '\n');
  std::string Out = Lines.front().str();
  for (llvm::StringRef Line : llvm::drop_begin(Lines))
    Out += "\n" + Indent.str() + Line.str();
  return Out;
}

} // namespace

static llvm::Expected<EditSet>
emit(const Site &S, const AggregateAtomicsPlan &Plan, ASTContext &Ctx) {
  llvm::StringSet<> Used = identifiersOf(*S.Kernel, Ctx);
  // One suffix for the names of each atomic, skipping any the kernel uses.
  unsigned Next = 0;
  std::vector<std::string> Names;
  auto NamesFree = [&] {
    Names.clear();
    for (const char *Base : {"mask", "sum", "step", "all", "rest", "lane"})
      Names.push_back("optiml_" + std::string(Base) + std::to_string(Next));
    return llvm::none_of(
        Names, [&](const std::string &N) { return Used.contains(N); });
  };
  EditSet Edits;
  for (const AggregatedAtomic &A : Plan.Atomics) {
    while (!NamesFree())
      ++Next;
    ++Next;
    std::string Block = llvm::formatv(
        Aggregated.data(), Names[0], Names[1], Names[2], Names[3], Names[4],
        Names[5], A.Element.getAsString(Ctx.getPrintingPolicy()),
        textOf(A.Call->getArg(0)->getSourceRange(), Ctx),
        textOf(A.Call->getArg(1)->getSourceRange(), Ctx));
    std::string Text =
        indented(Block, lineIndentOf(A.Call->getBeginLoc(), Ctx));
    if (llvm::Error E = Edits.add(
            *A.Call, changeTo(statement(EditSet::Root.str()), cat(Text)), Ctx))
      return E;
  }
  return Edits;
}

std::unique_ptr<Transform>
optiml::createAggregateAtomics(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
