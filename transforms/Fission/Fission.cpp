//===- Fission.cpp - split a loop in two at a statement boundary ---------===//
//
// Loop fission (distribution) at split=1:
//
//   for (int i = 0; i < n; ++i) {        for (int i = 0; i < n; ++i) {
//     y[i] = a * x[i];             =>      y[i] = a * x[i];
//     z[i] = b * x[i] + c[i];            }
//   }                                    for (int i = 0; i < n; ++i) {
//                                          z[i] = b * x[i] + c[i];
//                                        }
//
// Each loop is simpler than the one it came from: fewer registers live, a
// body the compiler unrolls or a later step vectorizes on its own. The
// price is a second pass over the iteration space (and reloading what both
// parts read). FissionLegality decides; the split point is a parameter,
// by default the first legal one.
//
//===----------------------------------------------------------------------===//

#include "optiml/Rewrite/Indentation.h"
#include "optiml/Rewrite/SourceSnippet.h"
#include "optiml/Rewrite/StmtSurround.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/Fission/FissionLegality.h"
#include "transforms/TransformFactories.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

/// The edits for a plan FissionLegality accepted.
static llvm::Expected<EditSet>
emit(const FissionPlan &Plan, const std::string &KernelName, ASTContext &Ctx);

/// The first split that is legal at the site, so that a step without
/// `split` (and --list-sites) names one that applies.
static ParamValues defaults(const TransformDescriptor &D, ParamValues V,
                            const Site &S, ASTContext &Ctx) {
  unsigned Max = std::stoul(D.Params.front().Domain.back());
  if (auto Split = FissionLegality::firstLegalSplit(S, Max, Ctx))
    V.set("split", std::to_string(*Split));
  return V;
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  return Rewrite::of(
      FissionLegality::check(S, unsigned(P.getInt("split")), Ctx),
      [Name = S.kernelName(), &Ctx](const auto &Plan) {
        return emit(Plan, Name, Ctx);
      });
}

/// Where the first loop's `}` goes: right after its last statement, or at
/// the end of that line when only blanks or a `//` comment follow there
/// (the comment stays with its statement).
static llvm::Expected<SourceLocation> splitPoint(const Stmt &Last,
                                                 ASTContext &Ctx) {
  auto End = SourceSnippet::endOffset(Last, Ctx);
  if (!End)
    return End.takeError();
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  size_t LineEnd = std::min(Buffer.find('\n', *End), Buffer.size());
  llvm::StringRef Rest = Buffer.slice(*End, LineEnd).trim();
  unsigned At = Rest.empty() || Rest.starts_with("//") ? LineEnd : *End;
  return SM.getComposedLoc(SM.getMainFileID(), At);
}

static llvm::Expected<EditSet>
emit(const FissionPlan &Plan, const std::string &KernelName, ASTContext &Ctx) {
  const ForStmt &For = *Plan.Loop.For;
  auto Header =
      SourceSnippet::ofTokens(For.getBeginLoc(), For.getRParenLoc(), Ctx);
  if (!Header)
    return Header.takeError();
  auto At = splitPoint(*Plan.lastOfFirst(), Ctx);
  if (!At)
    return At.takeError();
  std::string Base = lineIndentOf(For.getBeginLoc(), Ctx);
  std::string Text = "\n" + Base + "}\n" + Base + Header->text() + " {";
  RangeSelector Point =
      [Where = *At](const ast_matchers::MatchFinder::MatchResult &)
      -> llvm::Expected<CharSourceRange> {
    return CharSourceRange::getCharRange(Where, Where);
  };
  EditSet Edits;
  if (llvm::Error E =
          Edits.add(*Plan.lastOfFirst(), changeTo(Point, cat(Text)), Ctx))
    return E;
  if (Plan.NeedsBraces)
    if (llvm::Error E = surroundStmt(For, {}, {}, "", Edits, Ctx))
      return E;
  if (Plan.RestsOnSpec)
    Edits.addNote("'" + KernelName +
                  "' is not launched in this file: the split relies on the "
                  "kernel spec's buffers being distinct");
  return Edits;
}

std::unique_ptr<Transform> optiml::createFission(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan, defaults);
}
