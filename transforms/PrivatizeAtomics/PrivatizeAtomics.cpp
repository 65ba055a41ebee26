//===- PrivatizeAtomics.cpp - a block's histogram in shared memory --------===//
//
//   __global__ void histo(const unsigned char *data, unsigned *bins, int n) {
//     ... atomicAdd(&bins[data[i]], 1u); ...
//   }
//
// becomes
//
//   __global__ void histo(const unsigned char *data, unsigned *bins, int n) {
//     __shared__ unsigned int optiml_bins[256];
//     for (unsigned optiml_j = <thread>; optiml_j < 256; optiml_j += <threads>)
//       optiml_bins[optiml_j] = 0;
//     __syncthreads();
//     ... atomicAdd(&optiml_bins[data[i]], 1u); ...
//     __syncthreads();
//     for (unsigned optiml_j = <thread>; optiml_j < 256; optiml_j += <threads>)
//       if (optiml_bins[optiml_j] != 0)
//         atomicAdd(&bins[optiml_j], optiml_bins[optiml_j]);
//   }
//
// The block's atomics go to its own copy in shared memory, contended only
// within the block; the global array gets one atomic per non-zero bin and
// block. <thread> is the linear thread index and <threads> the block's
// size, so any block shape works. PrivatizeAtomicsLegality decides where it
// may run.
//
// Where the bins are counted by a kernel parameter (`min(max(b, 0), nbins -
// 1)`), the copy holds PrivateCapacity bins and is used only when the count
// fits, a test every thread answers alike:
//
//     __shared__ unsigned int optiml_counts[4096];
//     const long long optiml_nbins = (nbins - 1) + 1;
//     const bool optiml_private = optiml_nbins >= 1 && optiml_nbins <= 4096;
//     if (optiml_private)
//       for (...; optiml_j < optiml_nbins; ...) optiml_counts[optiml_j] = 0;
//     __syncthreads();
//     ... atomicAdd(&(optiml_private ? optiml_counts : counts)[bin], 1u); ...
//     __syncthreads();
//     if (optiml_private)
//       for (...; optiml_j < optiml_nbins; ...) ...merge...
//
//===----------------------------------------------------------------------===//

#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/KernelIdentifiers.h"
#include "optiml/Rewrite/ReturnFoldText.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/PrivatizeAtomics/PrivatizeAtomicsLegality.h"
#include "transforms/TransformFactories.h"

#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/Support/FormatVariadic.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet>
emit(const Site &S, const PrivatizeAtomicsPlan &Plan, ASTContext &Ctx);

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                                    ASTContext &Ctx) {
  return Rewrite::of(
      PrivatizeAtomicsLegality::check(S, Ctx),
      [S, &Ctx](const auto &Plan) { return emit(S, Plan, Ctx); });
}

/// The linear thread index and the block's thread count.
static constexpr llvm::StringLiteral Thread =
    "threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)";
static constexpr llvm::StringLiteral Threads =
    "blockDim.x * blockDim.y * blockDim.z";

/// {0}: indent, {1}: the copy, {2}: bins, {3}: counter, {4}: thread,
/// {5}: threads.
static constexpr llvm::StringLiteral ClearLoop = R"(
{0}for (unsigned {3} = {4}; {3} < {2}; {3} += {5})
{0}  {1}[{3}] = 0;)";

/// {0}: indent, {1}: the copy, {2}: bins, {3}: counter, {4}: thread,
/// {5}: threads, {6}: the buffer.
static constexpr llvm::StringLiteral MergeLoop = R"(
{0}for (unsigned {3} = {4}; {3} < {2}; {3} += {5})
{0}  if ({1}[{3}] != 0)
{0}    atomicAdd(&{6}[{3}], {1}[{3}]);)";

/// A symbolic count's variables: {0}: indent, {1}: capacity, {2}: count
/// variable, {3}: count, {4}: guard.
static constexpr llvm::StringLiteral CountDecls = R"(
{0}const long long {2} = {3};
{0}const bool {4} = {2} >= 1 && {2} <= {1};)";

/// A selector for the empty range at \p Loc.
static RangeSelector at(SourceLocation Loc) {
  return [Loc](const ast_matchers::MatchFinder::MatchResult &)
             -> llvm::Expected<CharSourceRange> {
    return CharSourceRange::getCharRange(Loc, Loc);
  };
}

/// `optiml_<name>`, with a number when the kernel already spells it.
static std::string freshName(llvm::StringRef Base,
                             const llvm::StringSet<> &Used) {
  std::string Name = ("optiml_" + Base).str();
  for (unsigned I = 0; Used.contains(Name); ++I)
    Name = ("optiml_" + Base + llvm::Twine(I)).str();
  return Name;
}

static llvm::Expected<EditSet>
emit(const Site &S, const PrivatizeAtomicsPlan &Plan, ASTContext &Ctx) {
  const auto *Body = cast<CompoundStmt>(S.Kernel->getBody());
  llvm::StringSet<> Used = identifiersOf(*S.Kernel, Ctx);
  std::string Copy = freshName(Plan.Buffer->getName(), Used);
  std::string Counter = freshName("j", Used);
  std::string Indent =
      Body->body_empty() ? "  "
                         : lineIndentOf(Body->body_front()->getBeginLoc(), Ctx);
  std::string Type = Plan.Element.getAsString(Ctx.getPrintingPolicy());
  bool Symbolic = !Plan.Count.empty();
  std::string CountVar = freshName("n" + Plan.Buffer->getName().str(), Used);
  std::string Guard = freshName("private", Used);
  std::string Bins = Symbolic ? CountVar : std::to_string(Plan.Bins) + "u";
  // Under a symbolic count's guard the loops go one level deeper.
  std::string LoopIndent = Symbolic ? Indent + "  " : Indent;
  std::string If = Symbolic ? "\n" + Indent + "if (" + Guard + ")" : "";
  std::string Top = llvm::formatv("\n{0}__shared__ {1} {2}[{3}];", Indent, Type,
                                  Copy, Plan.Bins);
  if (Symbolic)
    Top += llvm::formatv(CountDecls.data(), Indent, Plan.Bins, CountVar,
                         Plan.Count, Guard);
  Top += If + llvm::formatv(ClearLoop.data(), LoopIndent, Copy, Bins, Counter,
                            Thread, Threads)
                  .str();
  Top += "\n" + Indent + "__syncthreads();";
  std::string End =
      Indent + "__syncthreads();" + If +
      llvm::formatv(MergeLoop.data(), LoopIndent, Copy, Bins, Counter, Thread,
                    Threads, Plan.Buffer->getName())
          .str() +
      "\n";
  std::string Target = Symbolic ? "(" + Guard + " ? " + Copy + " : " +
                                      Plan.Buffer->getName().str() + ")"
                                : Copy;
  EditSet Edits;
  if (llvm::Error E = Edits.add(
          *Body,
          changeTo(at(Body->getLBracLoc().getLocWithOffset(1)), cat(Top)), Ctx))
    return E;
  for (const DeclRefExpr *Ref : Plan.Uses)
    if (llvm::Error E = Edits.add(
            *Ref, changeTo(node(EditSet::Root.str()), cat(Target)), Ctx))
      return E;
  if (llvm::Error E = writeReturnFold(Plan.Fold, Edits, Ctx))
    return E;
  // The merge goes on lines of its own above the closing brace.
  SourceLocation Brace = Body->getRBracLoc();
  unsigned Column = Ctx.getSourceManager().getSpellingColumnNumber(Brace);
  bool OwnLine = lineIndentOf(Brace, Ctx).size() + 1 == Column;
  SourceLocation Where =
      OwnLine ? Brace.getLocWithOffset(-int(Column - 1)) : Brace;
  if (llvm::Error E = Edits.add(
          *Body, changeTo(at(Where), cat(OwnLine ? End : "\n" + End)), Ctx))
    return E;
  return Edits;
}

std::unique_ptr<Transform>
optiml::createPrivatizeAtomics(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
