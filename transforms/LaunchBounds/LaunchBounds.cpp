//===- LaunchBounds.cpp - `__launch_bounds__(N)` on a kernel -------------===//
//
// Tells the compiler the kernel never runs with more than N threads per
// block, so it can spend more registers per thread, and with M, that M such
// blocks must fit on an SM, which caps registers per thread for occupancy.
// Legal when every launch is visible with a constant block of at most N
// threads, or N is 1024 (LaunchBoundsLegality).
//
//===----------------------------------------------------------------------===//

#include "optiml/Transform/FunctionTransform.h"
#include "transforms/TransformFactories.h"

#include "transforms/LaunchBounds/LaunchBoundsLegality.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet> emit(const FunctionDecl &K,
                                    const std::string &Attr, ASTContext &Ctx);

/// The tightest bound in the domain that every launch fits; the device's
/// limit when the launches' blocks are unknown.
static ParamValues defaults(const TransformDescriptor &D, ParamValues V,
                            const Site &S, ASTContext &Ctx) {
  auto Largest = LaunchBoundsLegality::largestBlock(*S.Kernel, Ctx);
  if (!Largest) {
    llvm::consumeError(Largest.takeError());
    V.set("max-threads",
          std::to_string(LaunchBoundsLegality::DeviceMaxThreads));
    return V;
  }
  for (const std::string &Value : D.Params.front().Domain)
    if (std::stoull(Value) >= *Largest) {
      V.set("max-threads", Value);
      break;
    }
  return V;
}

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,
                                    ASTContext &Ctx) {
  if (llvm::Error E = LaunchBoundsLegality::check(
          *S.Kernel, P.getInt("max-threads"), P.getInt("min-blocks"), Ctx))
    return E;
  // One block is what the bound implies anyway: leave it unwritten.
  std::string MinBlocks =
      P.getInt("min-blocks") > 1 ? ", " + P.get("min-blocks").str() : "";
  std::string Attr =
      "__launch_bounds__(" + P.get("max-threads").str() + MinBlocks + ") ";
  return Rewrite([&K = *S.Kernel, Attr, &Ctx] { return emit(K, Attr, Ctx); });
}

/// Where the attribute goes: before the declarator's name, qualifier
/// included (`void __launch_bounds__(256) ns::k(...)`).
static llvm::Expected<CharSourceRange>
beforeName(const ast_matchers::MatchFinder::MatchResult &R) {
  const auto *F = R.Nodes.getNodeAs<FunctionDecl>(EditSet::Root);
  SourceLocation L = F->getQualifierLoc() ? F->getQualifierLoc().getBeginLoc()
                                          : F->getLocation();
  return CharSourceRange::getCharRange(L, L);
}

static llvm::Expected<EditSet> emit(const FunctionDecl &K,
                                    const std::string &Attr, ASTContext &Ctx) {
  EditSet Edits;
  // Every declaration must agree, or nvcc warns and ignores the attribute.
  for (const FunctionDecl *D : K.redecls())
    if (llvm::Error E =
            Edits.add(*D, changeTo(RangeSelector(beforeName), cat(Attr)), Ctx))
      return E;
  return Edits;
}

std::unique_ptr<Transform> optiml::createLaunchBounds(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan, defaults);
}
