//===- EditSet.h - the edits one rewrite makes to a source ----*- C++ -*-===//
//
// A transform does not touch text: it describes edits with Clang
// Transformer's ASTEdit (a range selector over a bound AST node plus a text
// generator), and the edit set turns them into non-overlapping
// replacements of the main file. Applying the set to a KernelSource yields a
// new KernelSource; the original is never modified.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_EDITSET_H
#define OPTIML_REWRITE_EDITSET_H

#include "optiml/IR/KernelSource.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Transformer/RewriteRule.h"

#include <string>
#include <vector>

namespace optiml {

class EditSet {
public:
  /// The name under which each edit's node is bound: ASTEdits given to
  /// add() select with `transformer::node(EditSet::Root)`.
  static constexpr llvm::StringLiteral Root = "root";

  /// Evaluates \p Edit with \p Node bound as Root. An edit that lands in a
  /// macro expansion or outside the main file is NotApplicable; one that
  /// overlaps an earlier edit is Internal (a transform bug).
  llvm::Error add(const clang::Stmt &Node, clang::transformer::ASTEdit Edit,
                  clang::ASTContext &Ctx);
  llvm::Error add(const clang::Decl &Node, clang::transformer::ASTEdit Edit,
                  clang::ASTContext &Ctx);

  /// Replaces \p Length bytes at \p Offset of the main file: for text the
  /// AST does not hold, such as a `#pragma optiml` mark.
  llvm::Error addText(const clang::SourceManager &SM, unsigned Offset,
                      unsigned Length, llvm::StringRef Text);

  /// Something a reader of the result must know (an assumption it rests on).
  void addNote(std::string Note) { Notes.push_back(std::move(Note)); }

  bool empty() const { return Replaces.empty(); }
  const clang::tooling::Replacements &replacements() const { return Replaces; }
  llvm::ArrayRef<std::string> notes() const { return Notes; }

  /// \p Source with every edit applied, under the same path.
  llvm::Expected<KernelSource> applyTo(const KernelSource &Source) const;

private:
  llvm::Error addBound(const clang::ast_matchers::BoundNodes &Nodes,
                       clang::transformer::ASTEdit Edit,
                       clang::ASTContext &Ctx);

  clang::tooling::Replacements Replaces;
  std::vector<std::string> Notes;
};

} // namespace optiml

#endif // OPTIML_REWRITE_EDITSET_H
