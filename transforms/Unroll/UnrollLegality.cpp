//===- UnrollLegality.cpp - may a loop get `#pragma unroll N`? -----------===//

#include "transforms/Unroll/UnrollLegality.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Analysis/Legality/LoopInfo.h"
#include "optiml/Analysis/Legality/VarUses.h"

#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;

const LoopHintAttr *UnrollLegality::existingHint(const Stmt &Loop,
                                                 ASTContext &Ctx) {
  const auto *Attributed =
      parentOf(DynTypedNode::create(Loop), Ctx).get<AttributedStmt>();
  if (!Attributed)
    return nullptr;
  for (const Attr *A : Attributed->getAttrs())
    if (const auto *Hint = dyn_cast<LoopHintAttr>(A))
      if (Hint->getOption() == LoopHintAttr::Unroll ||
          Hint->getOption() == LoopHintAttr::UnrollCount)
        return Hint;
  return nullptr;
}

static const char *spellingOf(const LoopHintAttr &Hint) {
  switch (Hint.getSemanticSpelling()) {
  case LoopHintAttr::Pragma_nounroll:
    return "#pragma nounroll";
  case LoopHintAttr::Pragma_clang_loop:
    return "#pragma clang loop";
  default:
    return "#pragma unroll";
  }
}

llvm::Error UnrollLegality::check(const Stmt &Loop, llvm::StringRef Site,
                                  ASTContext &Ctx) {
  if (!isa<ForStmt, CXXForRangeStmt>(Loop))
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "'" + Site + "' is " + loopKindOf(Loop) +
                               "; '#pragma unroll' is placed on for-loops "
                               "only");
  if (const LoopHintAttr *Hint = existingHint(Loop, Ctx))
    return notApplicableAt(Hint->getLocation(), Ctx,
                           "'" + Site + "' already has '" + spellingOf(*Hint) +
                               "'");
  const SourceManager &SM = Ctx.getSourceManager();
  if (Loop.getBeginLoc().isMacroID() ||
      !SM.isWrittenInMainFile(Loop.getBeginLoc()))
    return notApplicableAt(Loop.getBeginLoc(), Ctx,
                           "'" + Site +
                               "' is written inside a macro; a pragma cannot "
                               "be placed there");
  return llvm::Error::success();
}
