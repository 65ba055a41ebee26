//===- Transform.h - one structured, checked source rewrite ---*- C++ -*-===//
//
// A transform is policy-free mechanism: it declares what it is (a
// descriptor), and plans a rewrite at a site with parameters. Planning
// decides legality once, through its analysis, and the plan then emits the
// edits without deciding again, so "legal" and "applies" cannot drift
// apart. Choosing sites and parameters is the caller's: a user's --apply,
// or a search.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_TRANSFORM_H
#define OPTIML_TRANSFORM_TRANSFORM_H

#include "optiml/Transform/Rewrite.h"
#include "optiml/Transform/TransformDescriptor.h"

#include "clang/AST/ASTContext.h"

namespace optiml {

class Transform {
public:
  explicit Transform(TransformDescriptor D) : Desc(std::move(D)) {}
  virtual ~Transform();

  const TransformDescriptor &descriptor() const { return Desc; }
  /// The name used in steps: `unroll`, `block-size`.
  llvm::StringRef name() const { return Desc.Name; }
  llvm::StringRef summary() const { return Desc.Summary; }
  SiteKind siteKind() const { return Desc.Kind; }
  llvm::ArrayRef<ParamSpec> params() const { return Desc.Params; }
  bool changesNumerics() const { return Desc.ChangesNumerics; }

  /// The parameters to suggest at \p S (--list-sites' `apply`) and to use
  /// for ones a step leaves out. By default the declared defaults. A
  /// parameter left out here stays out of completed steps unless given (the
  /// transform reads its absence as its default): a parameter added later
  /// keeps existing steps' spelling and the search's neighbourhoods.
  virtual ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const;

  /// The parameters to suggest at \p S, where they differ from those a
  /// step that leaves them out gets (unroll suggests its explicit mode for
  /// grid-stride loops, while a step without `mode` keeps the pragma). By
  /// default defaults().
  virtual ParamValues suggested(const Site &S, clang::ASTContext &Ctx) const {
    return defaults(S, Ctx);
  }

  /// The rewrite at \p S with \p Params (all set but those defaults() leaves
  /// out) when it keeps the program's meaning; else a LegalityError
  /// (Illegal or NotApplicable) from the analysis that decided it.
  virtual llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &Params,
                                       clang::ASTContext &Ctx) const = 0;

  /// Success when plan() succeeds.
  llvm::Error check(const Site &S, const ParamValues &Params,
                    clang::ASTContext &Ctx) const;

  /// The declared parameter \p Name, or null.
  const ParamSpec *param(llvm::StringRef Name) const;

private:
  TransformDescriptor Desc;
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_TRANSFORM_H
