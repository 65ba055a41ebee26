//===- PipelineShared.cpp - N-buffered tiles copied with cp.async ---------===//
//
// A tile loop that copies a tile of global memory into __shared__ arrays,
// waits, computes from them and waits again stalls on every tile's loads:
//
//   for (int t = 0; t < n; t += 16) {    for (int t = 0; t < n; t += 16) {
//     As[ty][tx] = A[...];                 __pipeline_wait_prior(0);
//     __syncthreads();              ->     __syncthreads();
//     acc += As[ty][i] * ...;              { ...copy of tile t+16 into
//     __syncthreads();                       As[(s + 1) % 2], cp.async... }
//   }                                      __pipeline_commit();
//                                          acc += As[s][ty][i] * ...;
//                                          s = (s + 1) % 2;
//                                        }
//
// with the arrays declared `As[2][..]` and the first tile's copy issued
// before the loop. The copies of the next stages - 1 tiles fly while the
// current one is used, and one barrier per iteration is enough.
// PipelineSharedLegality decides where it may run; PipelinePrinter writes
// the text.
//
//===----------------------------------------------------------------------===//

#include "transforms/PipelineShared/PipelinePrinter.h"
#include "transforms/PipelineShared/PipelineSharedLegality.h"
#include "transforms/TransformFactories.h"

#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/KernelIdentifiers.h"
#include "optiml/Rewrite/RawTokens.h"
#include "optiml/Rewrite/SourceSnippet.h"
#include "optiml/Support/Error.h"
#include "optiml/Transform/FunctionTransform.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/ADT/StringExtras.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet> emit(const PipelineSharedPlan &Plan,
                                    ASTContext &Ctx);

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  return Rewrite::of(PipelineSharedLegality::check(S, P, Ctx),
                     [&Ctx](const auto &Plan) { return emit(Plan, Ctx); });
}

/// `optiml_<name>`, with a number when the kernel already spells it.
static std::string freshName(llvm::StringRef Base,
                             const llvm::StringSet<> &Used) {
  std::string Name = ("optiml_" + Base).str();
  for (unsigned I = 0; Used.contains(Name); ++I)
    Name = ("optiml_" + Base + llvm::Twine(I)).str();
  return Name;
}

/// `#include <cuda_pipeline.h>` after the last include before the kernel,
/// unless the file includes it already.
static llvm::Error addInclude(const FunctionDecl &Kernel, EditSet &Edits,
                              ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  auto KernelAt = SourceSnippet::offsetOf(
      SM.getExpansionLoc(Kernel.getSourceRange().getBegin()), Ctx);
  if (!KernelAt)
    return KernelAt.takeError();
  unsigned At = 0;
  for (const RawDirective &D : RawTokens(Buf).directives()) {
    if (D.Name != "include" || D.Offset > *KernelAt)
      continue;
    if (llvm::StringRef(D.Text).contains("cuda_pipeline"))
      return llvm::Error::success();
    size_t End = Buf.find('\n', D.Offset);
    At = End == llvm::StringRef::npos ? Buf.size() : End + 1;
  }
  std::string Line = "#include <cuda_pipeline.h>\n";
  if (At == Buf.size() && !Buf.ends_with("\n"))
    Line = "\n" + Line;
  return Edits.addText(SM, At, 0, Line);
}

/// `[N]` after the name of each array: the N buffers of each tile.
static llvm::Error addBuffers(const PipelineSharedPlan &Plan, EditSet &Edits,
                              ASTContext &Ctx) {
  std::string Dim = "[" + std::to_string(Plan.Stages) + "]";
  for (const VarDecl *V : Plan.Copy.buffers())
    if (llvm::Error E = Edits.add(
            *V, insertAfter(name(std::string(EditSet::Root)), cat(Dim)), Ctx))
      return E;
  return llvm::Error::success();
}

/// Replaces the main-file text from \p Begin up to the end of \p Last (its
/// `;` included) with \p Text.
static llvm::Error replaceStmts(SourceLocation Begin, const Stmt &Last,
                                llvm::StringRef Text, EditSet &Edits,
                                ASTContext &Ctx) {
  auto From = SourceSnippet::offsetOf(Begin, Ctx);
  if (!From)
    return From.takeError();
  auto To = SourceSnippet::endOffset(Last, Ctx);
  if (!To)
    return To.takeError();
  return Edits.addText(Ctx.getSourceManager(), *From, *To - *From, Text);
}

static llvm::Expected<EditSet> emit(const PipelineSharedPlan &Plan,
                                    ASTContext &Ctx) {
  llvm::StringSet<> Used = identifiersOf(*Plan.Kernel, Ctx);
  PipelineNames Names{freshName("stage", Used), freshName("next", Used),
                      freshName("p", Used)};
  PipelinePrinter Printer(Plan, Names, Ctx);
  const ForStmt &For = *Plan.Loop.For;
  const SourceManager &SM = Ctx.getSourceManager();
  EditSet Edits;
  if (llvm::Error E = addInclude(*Plan.Kernel, Edits, Ctx))
    return E;
  if (llvm::Error E = addBuffers(Plan, Edits, Ctx))
    return E;
  auto Prologue = Printer.prologue();
  if (!Prologue)
    return Prologue.takeError();
  auto LoopAt = SourceSnippet::offsetOf(For.getBeginLoc(), Ctx);
  if (!LoopAt)
    return LoopAt.takeError();
  if (llvm::Error E = Edits.addText(SM, *LoopAt, 0, *Prologue))
    return E;
  auto Issue = Printer.issue();
  if (!Issue)
    return Issue.takeError();
  if (llvm::Error E = replaceStmts(Plan.CopyStmts.front()->getBeginLoc(),
                                   *Plan.FirstBarrier, *Issue, Edits, Ctx))
    return E;
  for (const DeclRefExpr *Ref : Plan.WorkRefs)
    if (llvm::Error E = Edits.add(*Ref,
                                  insertAfter(node(std::string(EditSet::Root)),
                                              cat(Printer.current())),
                                  Ctx))
      return E;
  if (llvm::Error E =
          replaceStmts(Plan.LastBarrier->getBeginLoc(), *Plan.LastBarrier,
                       Printer.advance(), Edits, Ctx))
    return E;
  std::string After;
  std::string Base = lineIndentOf(For.getBeginLoc(), Ctx);
  if (Plan.BarrierAfter)
    After += "\n" + Base + (Plan.InBlock ? "" : "  ") + "__syncthreads();";
  if (!Plan.InBlock)
    After += "\n" + Base + "}";
  if (!After.empty()) {
    auto LoopEnd = SourceSnippet::endOffset(For, Ctx);
    if (!LoopEnd)
      return LoopEnd.takeError();
    if (llvm::Error E = Edits.addText(SM, *LoopEnd, 0, After))
      return E;
  }
  std::vector<std::string> Arrays;
  for (const VarDecl *V : Plan.Copy.buffers())
    Arrays.push_back("'" + V->getName().str() + "'");
  Edits.addNote("pipeline-shared: " + std::to_string(Plan.Stages) +
                " buffers of " + llvm::join(Arrays, ", ") +
                ", filled with cp.async, which needs sm_80 or newer");
  return Edits;
}

std::unique_ptr<Transform> optiml::createPipelineShared(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
