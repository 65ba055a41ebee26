//===- LaunchBounds.cpp - `__launch_bounds__(N)` on a kernel -------------===//

#include "LaunchBounds.h"

#include "transforms/LaunchBounds/LaunchBoundsLegality.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

std::unique_ptr<Transform> optiml::createLaunchBounds(TransformDescriptor D) {
  return std::make_unique<LaunchBounds>(std::move(D));
}

ParamValues LaunchBounds::defaults(const Site &S, ASTContext &Ctx) const {
  ParamValues V = Transform::defaults(S, Ctx);
  auto Largest = LaunchBoundsLegality::largestBlock(*S.Kernel, Ctx);
  if (!Largest) {
    llvm::consumeError(Largest.takeError());
    return V;
  }
  for (const std::string &Value : params().front().Domain)
    if (std::stoull(Value) >= *Largest) {
      V.set("max-threads", Value);
      break;
    }
  return V;
}

llvm::Expected<Rewrite> LaunchBounds::plan(const Site &S, const ParamValues &P,
                                           ASTContext &Ctx) const {
  if (llvm::Error E = LaunchBoundsLegality::check(
          *S.Kernel, P.getInt("max-threads"), Ctx))
    return E;
  std::string Attr = "__launch_bounds__(" + P.get("max-threads").str() + ") ";
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

llvm::Expected<EditSet> LaunchBounds::emit(const FunctionDecl &K,
                                           const std::string &Attr,
                                           ASTContext &Ctx) {
  EditSet Edits;
  // Every declaration must agree, or nvcc warns and ignores the attribute.
  for (const FunctionDecl *D : K.redecls())
    if (llvm::Error E =
            Edits.add(*D, changeTo(RangeSelector(beforeName), cat(Attr)), Ctx))
      return E;
  return Edits;
}
