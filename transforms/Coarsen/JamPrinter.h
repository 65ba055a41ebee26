//===- JamPrinter.h - print a coarsened kernel body ------------*- C++ -*-===//
//
// CoarsenLegality decides what happens to each statement (JamAction); this
// printer only writes the result: statements that run once stay, index
// variables move into the jam loops, private variables become arrays, and
// consecutive per-copy statements share one
//   #pragma unroll
//   for (int optiml_cy = 0; optiml_cy < F; ++optiml_cy) { ... }
// whose body first re-declares the index variables it uses for copy
// optiml_cy. The stage-shared transform reads this form: it is a contract.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_COARSEN_JAMPRINTER_H
#define OPTIML_TRANSFORMS_COARSEN_JAMPRINTER_H

#include "optiml/Rewrite/BodyWriter.h"

#include "transforms/Coarsen/CoarsenLegality.h"

#include <optional>

namespace optiml {

class JamPrinter {
public:
  JamPrinter(const CoarsenPlan &Plan, clang::ASTContext &Ctx)
      : Plan(Plan), Ctx(Ctx) {}

  /// The new text of \p Body, braces included.
  llvm::Expected<std::string> print(const clang::CompoundStmt &Body);

private:
  /// A statement (or a private variable's initializer) run per copy.
  struct Item {
    const clang::Stmt *S = nullptr;
    const clang::VarDecl *Init = nullptr; ///< Set for `v[c] = init;`.
    std::vector<std::string> Leading;     ///< Comment lines before it.
    std::string Trailing;                 ///< Comment after it.
  };
  /// Comments around the statements of a list.
  struct Gaps {
    std::vector<std::vector<std::string>> Leading;
    std::vector<std::string> Trailing;
    std::string Opening;              ///< After the `{`.
    std::vector<std::string> Closing; ///< Before the `}`.
  };

  llvm::Error printList(llvm::ArrayRef<const clang::Stmt *> Stmts,
                        const clang::CompoundStmt *Braces, unsigned Depth);
  llvm::Error printBlock(const clang::Stmt *Body, unsigned Depth);
  llvm::Error printStmt(const clang::Stmt *S, unsigned Depth, Item Where);
  llvm::Error printDescend(const clang::Stmt *S, unsigned Depth,
                           const std::string &Trailing);
  llvm::Error printPrivate(const clang::DeclStmt &D, unsigned Depth,
                           Item Where);
  llvm::Error printKeep(const clang::Stmt *S, unsigned Depth,
                        const Item &Where);
  llvm::Error flush(unsigned Depth);
  llvm::Error printItem(const Item &I, unsigned Depth);

  llvm::Expected<Gaps> gapsOf(llvm::ArrayRef<const clang::Stmt *> Stmts,
                              const clang::CompoundStmt &Braces) const;
  llvm::Expected<std::vector<std::string>> itemLines(const Item &I) const;
  llvm::Expected<std::vector<std::string>> rematerialized() const;
  llvm::Expected<std::string> guardText() const;
  llvm::Error substitute(class SourceSnippet &Snip,
                         const clang::Stmt *Root) const;
  void leading(unsigned Depth, const std::vector<std::string> &Lines);

  const CoarsenPlan &Plan;
  clang::ASTContext &Ctx;
  std::optional<BodyWriter> W;
  std::vector<Item> Pending;                   ///< The open jam group.
  std::vector<const clang::VarDecl *> InScope; ///< Dropped index variables.
  /// Removed guards: an early return's condition (the copy goes on while
  /// it is false) or a guard block's (while it is true).
  struct Guard {
    const clang::Expr *Cond;
    bool Exits;
  };
  std::vector<Guard> Guards;
  std::vector<std::string> Comments;           ///< Of dropped statements.
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_COARSEN_JAMPRINTER_H
