//===- VectorizeLoop.cpp - load W consecutive elements a loop walks -------===//
//
// A loop that walks a row one scalar an iteration,
//
//   for (int j = 0; j < n; j++)
//     sum += A[row * n + j] * x[j];
//
// becomes a loop over chunks of W iterations that loads each walked row
// once per chunk, as a float4 (double2, int4, ...), and runs the body W
// times on its lanes, in the original order:
//
//   int optiml_j_v = 0;
//   if (optiml_j_v + 3 < n &&
//       reinterpret_cast<size_t>(&A[row * n + optiml_j_v]) % sizeof(float4) == 0 &&
//       reinterpret_cast<size_t>(&x[optiml_j_v]) % sizeof(float4) == 0) {
//     for (; optiml_j_v + 3 < n; optiml_j_v += 4) {
//       const float4 optiml_A = *reinterpret_cast<const float4 *>(&A[row * n + optiml_j_v]);
//       const float4 optiml_x = *reinterpret_cast<const float4 *>(&x[optiml_j_v]);
//       sum += optiml_A.x * optiml_x.x;
//       ...
//       sum += optiml_A.w * optiml_x.w;
//     }
//   }
//   for (int j = optiml_j_v; j < n; j++)
//     sum += A[row * n + j] * x[j];
//
// The arithmetic is the original's, operation for operation; only when
// the elements are loaded changes. VectorizeLoopLegality decides which
// reads may be loaded early; LoopVectorPrinter writes the loops.
//
//===----------------------------------------------------------------------===//

#include "transforms/VectorizeLoop/LoopVectorPrinter.h"
#include "optiml/Analysis/Legality/CudaBuiltins.h"
#include "optiml/Rewrite/KernelIdentifiers.h"
#include "optiml/Rewrite/SourceSnippet.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/TransformFactories.h"
#include "transforms/VectorizeLoop/VectorizeLoopLegality.h"

#include "clang/Tooling/Transformer/Stencil.h"
#include "llvm/ADT/StringSet.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet> emit(const FunctionDecl &K,
                                    const VectorizeLoopPlan &Plan,
                                    ASTContext &Ctx);

/// Width 2 when the loop reads doubles (there is no double4 load), else
/// the declared 4.
static ParamValues defaults(const TransformDescriptor &, ParamValues V,
                            const Site &S, ASTContext &) {
  const auto *For = dyn_cast<ForStmt>(S.Loop);
  if (!For)
    return V;
  for (const auto *A : nodesOf<ArraySubscriptExpr>(For->getBody()))
    if (A->getType()->isSpecificBuiltinType(BuiltinType::Double))
      V.set("width", "2");
  return V;
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  return Rewrite::of(
      VectorizeLoopLegality::check(S, unsigned(P.getInt("width")), Ctx),
      [&K = *S.Kernel, &Ctx](const auto &Plan) { return emit(K, Plan, Ctx); });
}

/// \p Base, or \p Base numbered from 1, whichever \p Used lacks; the name
/// is then added to it.
static std::string freshName(const std::string &Base, llvm::StringSet<> &Used) {
  std::string Name = Base;
  for (unsigned N = 1; Used.contains(Name); ++N)
    Name = Base + std::to_string(N);
  Used.insert(Name);
  return Name;
}

static llvm::Expected<EditSet> emit(const FunctionDecl &K,
                                    const VectorizeLoopPlan &Plan,
                                    ASTContext &Ctx) {
  llvm::StringSet<> Used = identifiersOf(K, Ctx);
  std::string Counter =
      freshName(("optiml_" + Plan.Loop.IV->getName() + "_v").str(), Used);
  std::vector<std::string> Vectors;
  for (const WalkedRead &W : Plan.Walks) {
    const auto *Base =
        cast<DeclRefExpr>(W.Reads.front()->getBase()->IgnoreParenImpCasts());
    Vectors.push_back(
        freshName("optiml_" + Base->getDecl()->getName().str(), Used));
  }
  const ForStmt &For = *Plan.Loop.For;
  auto Text =
      LoopVectorPrinter(Plan, Counter, std::move(Vectors), Ctx).print();
  if (!Text)
    return Text.takeError();
  auto Begin = SourceSnippet::offsetOf(For.getBeginLoc(), Ctx);
  if (!Begin)
    return Begin.takeError();
  auto End = SourceSnippet::endOffset(For, Ctx);
  if (!End)
    return End.takeError();
  // The loop through its last `;` or `}`.
  CharSourceRange Whole = CharSourceRange::getCharRange(
      For.getBeginLoc(), For.getBeginLoc().getLocWithOffset(*End - *Begin));
  RangeSelector Range = [Whole](const ast_matchers::MatchFinder::MatchResult &)
      -> llvm::Expected<CharSourceRange> { return Whole; };
  EditSet Edits;
  if (llvm::Error E = Edits.add(For, changeTo(Range, cat(*Text)), Ctx))
    return E;
  return Edits;
}

std::unique_ptr<Transform> optiml::createVectorizeLoop(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan, defaults);
}
