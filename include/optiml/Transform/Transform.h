//===- Transform.h - one structured, checked source rewrite ---*- C++ -*-===//
//
// A transform is policy-free mechanism: it declares its parameters and the
// kind of site it acts on, asks lib/Analysis whether it is legal at a site
// (check), and describes its edits (apply). Choosing sites and parameters
// is the caller's: a user's --apply, or a search.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_TRANSFORM_H
#define OPTIML_TRANSFORM_TRANSFORM_H

#include "optiml/Rewrite/EditSet.h"
#include "optiml/Transform/ParamSpec.h"
#include "optiml/Transform/Site.h"

#include "clang/AST/ASTContext.h"

namespace optiml {

class Transform {
public:
  virtual ~Transform();

  /// The name used in steps: `unroll`, `block-size`.
  virtual llvm::StringRef name() const = 0;
  /// One line for --list-transforms.
  virtual llvm::StringRef summary() const = 0;
  virtual SiteKind siteKind() const = 0;
  virtual llvm::ArrayRef<ParamSpec> params() const = 0;
  /// True when results may differ in the last bits (fast intrinsics), so
  /// verification relies on the spec's tolerance.
  virtual bool changesNumerics() const { return false; }

  /// The parameters to suggest at \p S (--list-sites' `apply`) and to use
  /// for ones a step leaves out. By default the declared defaults. A
  /// parameter left out here stays out of completed steps unless given (the
  /// transform reads its absence as its default): a parameter added later
  /// keeps existing steps' spelling and the search's neighbourhoods.
  virtual ParamValues defaults(const Site &S, clang::ASTContext &Ctx) const;

  /// Success when the rewrite keeps the program's meaning at \p S with
  /// \p Params (all set but those defaults() leaves out); else a LegalityError
  /// (Illegal or NotApplicable) from the analysis that decided it.
  virtual llvm::Error check(const Site &S, const ParamValues &Params,
                            clang::ASTContext &Ctx) const = 0;

  /// The edits, for a site and parameters that passed check().
  virtual llvm::Expected<EditSet> apply(const Site &S,
                                        const ParamValues &Params,
                                        clang::ASTContext &Ctx) const = 0;

  /// The declared parameter \p Name, or null.
  const ParamSpec *param(llvm::StringRef Name) const;
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_TRANSFORM_H
