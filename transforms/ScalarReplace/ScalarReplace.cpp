//===- ScalarReplace.cpp - keep a buffer element in a register -----------===//
//
// `for (k...) C[i * n + j] += A[...] * B[...];` becomes
//
//   float optiml_sr0 = C[i * n + j];
//   for (k...) optiml_sr0 += A[...] * B[...];
//   C[i * n + j] = optiml_sr0;
//
// for every element the loop writes at one index it keeps
// (ScalarReplaceLegality): one load and one store instead of a load and a
// store per iteration, and the loop no longer writes memory, which frees
// the compiler to keep its other loads in registers and lets shared-memory
// staging read the other buffers.
//
//===----------------------------------------------------------------------===//

#include "optiml/Analysis/SourceText.h"
#include "optiml/Rewrite/KernelIdentifiers.h"
#include "optiml/Rewrite/StmtSurround.h"
#include "optiml/Transform/FunctionTransform.h"
#include "transforms/ScalarReplace/ScalarReplaceLegality.h"
#include "transforms/TransformFactories.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

static llvm::Expected<EditSet>
emit(const Site &S, const ScalarReplacePlan &Plan, ASTContext &Ctx);

static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &,
                                    ASTContext &Ctx) {
  return Rewrite::of(
      ScalarReplaceLegality::check(*S.Loop, S.Name, *S.Kernel, Ctx),
      [S, &Ctx](const auto &Plan) { return emit(S, Plan, Ctx); });
}

static llvm::Expected<EditSet>
emit(const Site &S, const ScalarReplacePlan &Plan, ASTContext &Ctx) {
  llvm::StringSet<> Used = identifiersOf(*S.Kernel, Ctx);
  EditSet Edits;
  std::vector<std::string> Loads, Stores;
  unsigned Next = 0;
  for (const ReplacedElement &E : Plan.Elements) {
    std::string Name;
    do
      Name = "optiml_sr" + std::to_string(Next++);
    while (Used.contains(Name));
    std::string Element = textOf(E.Uses.front()->getSourceRange(), Ctx);
    Loads.push_back(E.Element.getAsString(Ctx.getPrintingPolicy()) + " " +
                    Name + " = " + Element + ";");
    Stores.push_back(Element + " = " + Name + ";");
    for (const ArraySubscriptExpr *Use : E.Uses)
      if (llvm::Error Err = Edits.add(
              *Use, changeTo(node(EditSet::Root.str()), cat(Name)), Ctx))
        return Err;
  }
  if (llvm::Error Err =
          surroundStmt(*S.Loop, Loads, Stores, Plan.EntryTest, Edits, Ctx))
    return Err;
  if (Plan.RestsOnSpec)
    Edits.addNote("'" + S.Kernel->getNameAsString() +
                  "' is not launched in this file: keeping the element in a "
                  "register relies on the kernel spec's buffers being "
                  "distinct");
  return Edits;
}

std::unique_ptr<Transform> optiml::createScalarReplace(TransformDescriptor D) {
  return std::make_unique<FunctionTransform>(std::move(D), plan);
}
