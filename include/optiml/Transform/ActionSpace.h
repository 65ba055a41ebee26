//===- ActionSpace.h - every (transform, site) of a source ----*- C++ -*-===//
//
// The moves available in one state: each registered transform at each of
// its sites, with the site's default parameters and the legality verdict.
// --list-sites prints it; a search draws from its legal part.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_ACTIONSPACE_H
#define OPTIML_TRANSFORM_ACTIONSPACE_H

#include "optiml/IR/KernelInfo.h"
#include "optiml/Rewrite/ParsedSource.h"
#include "optiml/Transform/Step.h"
#include "optiml/Transform/TransformRegistry.h"

namespace optiml {

struct Action {
  std::string Transform;
  std::string Kernel;
  Step Default; ///< The site with its default parameters, all set.
  bool Legal = false;
  std::string Kind; ///< "legal", "illegal" or "not-applicable".
  /// Why not; for a legal action, what its result rests on (often empty).
  std::string Reason;
  SourcePos Where; ///< What decided a refusal, when known.
  /// Where the site is in the parse it was enumerated in: the loop, the
  /// buffer parameter or the kernel's name.
  clang::SourceLocation SiteLoc;
};

class ActionSpace {
public:
  /// Every transform of \p Registry at every site of \p Kernel (all kernels
  /// when empty), grouped by kernel in source order, then by transform in
  /// registration order.
  static std::vector<Action> enumerate(const TransformRegistry &Registry,
                                       ParsedSource &Parsed,
                                       llvm::StringRef Kernel);
  /// The same over any translation unit's AST: the Clang plugin asks it of
  /// the compile it runs in.
  static std::vector<Action> enumerate(const TransformRegistry &Registry,
                                       clang::ASTContext &Ctx,
                                       llvm::StringRef Kernel);
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_ACTIONSPACE_H
