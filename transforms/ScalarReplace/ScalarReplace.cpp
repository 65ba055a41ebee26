//===- ScalarReplace.cpp - keep a buffer element in a register -----------===//

#include "ScalarReplace.h"
#include "optiml/Analysis/SourceText.h"
#include "optiml/Rewrite/KernelIdentifiers.h"
#include "optiml/Rewrite/StmtSurround.h"

#include "clang/Tooling/Transformer/Stencil.h"

using namespace optiml;
using namespace clang;
using namespace clang::transformer;

std::unique_ptr<Transform>
optiml::createScalarReplace(TransformDescriptor D) {
  return std::make_unique<ScalarReplace>(std::move(D));
}

llvm::Expected<Rewrite> ScalarReplace::plan(const Site &S, const ParamValues &,
                                            ASTContext &Ctx) const {
  auto Plan = ScalarReplaceLegality::check(*S.Loop, S.Name, *S.Kernel, Ctx);
  if (!Plan)
    return Plan.takeError();
  return Rewrite(
      [S, Plan = std::move(*Plan), &Ctx] { return emit(S, Plan, Ctx); });
}

llvm::Expected<EditSet> ScalarReplace::emit(const Site &S,
                                            const ScalarReplacePlan &Plan,
                                            ASTContext &Ctx) {
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
