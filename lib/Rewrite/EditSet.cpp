//===- EditSet.cpp - the edits one rewrite makes to a source -------------===//

#include "optiml/Rewrite/EditSet.h"
#include "optiml/Support/Error.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"

using namespace optiml;
using namespace clang;
namespace am = clang::ast_matchers;

llvm::Error EditSet::add(const Stmt &Node, transformer::ASTEdit Edit,
                         ASTContext &Ctx) {
  auto Matches = am::match(am::stmt().bind(Root), Node, Ctx);
  if (Matches.empty())
    return makeError(ErrorKind::Internal, "cannot bind the node to edit");
  return addBound(Matches.front(), std::move(Edit), Ctx);
}

llvm::Error EditSet::add(const Decl &Node, transformer::ASTEdit Edit,
                         ASTContext &Ctx) {
  auto Matches = am::match(am::decl().bind(Root), Node, Ctx);
  if (Matches.empty())
    return makeError(ErrorKind::Internal, "cannot bind the node to edit");
  return addBound(Matches.front(), std::move(Edit), Ctx);
}

llvm::Error EditSet::addBound(const am::BoundNodes &Nodes,
                              transformer::ASTEdit Edit, ASTContext &Ctx) {
  am::MatchFinder::MatchResult Result(Nodes, &Ctx);
  auto Edits = transformer::edit(std::move(Edit))(Result);
  if (!Edits)
    return makeError(ErrorKind::Internal,
                     "edit failed: " + llvm::toString(Edits.takeError()));
  // Transformer drops edits whose range cannot be mapped to the file (a
  // piece of a macro expansion).
  if (Edits->empty())
    return makeError(ErrorKind::NotApplicable,
                     "the code to change is inside a macro expansion");
  const SourceManager &SM = Ctx.getSourceManager();
  for (const transformer::Edit &E : *Edits) {
    if (!SM.isWrittenInMainFile(E.Range.getBegin()))
      return makeError(ErrorKind::NotApplicable,
                       "the code to change is not in the main file");
    tooling::Replacement R(SM, E.Range, E.Replacement, Ctx.getLangOpts());
    if (llvm::Error Err = Replaces.add(R))
      return makeError(ErrorKind::Internal,
                       "overlapping edits: " + llvm::toString(std::move(Err)));
  }
  return llvm::Error::success();
}

llvm::Error EditSet::addText(const SourceManager &SM, unsigned Offset,
                             unsigned Length, llvm::StringRef Text) {
  SourceLocation Start =
      SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(Offset);
  if (llvm::Error Err =
          Replaces.add(tooling::Replacement(SM, Start, Length, Text)))
    return makeError(ErrorKind::Internal,
                     "overlapping edits: " + llvm::toString(std::move(Err)));
  return llvm::Error::success();
}

llvm::Expected<KernelSource>
EditSet::applyTo(const KernelSource &Source) const {
  auto Text = tooling::applyAllReplacements(Source.text(), Replaces);
  if (!Text)
    return makeError(ErrorKind::Internal,
                     "cannot apply edits: " + llvm::toString(Text.takeError()));
  return KernelSource(Source.path().str(), std::move(*Text));
}
