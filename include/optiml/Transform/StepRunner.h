//===- StepRunner.h - apply a step and re-parse the result ----*- C++ -*-===//
//
// The one path from a step to a new source, shared by --apply and the
// search: resolve the site by name in the current parse, complete the
// parameters with the site's defaults, check legality, apply the edits, and
// parse the result with the original command; then remove the declarations
// of the locals the step left unused (UnusedAfterEdit.h), whatever the
// transform, and parse again. A result that does not parse is an Internal
// error, never an output.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_STEPRUNNER_H
#define OPTIML_TRANSFORM_STEPRUNNER_H

#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Transform/Step.h"
#include "optiml/Transform/TransformRegistry.h"

#include <memory>

namespace optiml {

struct StepResult {
  std::unique_ptr<ParsedSource> Parsed; ///< The rewritten, re-parsed source.
  Step Applied;                         ///< With every parameter set.
  std::vector<std::string> Notes;       ///< Assumptions the result rests on.
};

class StepRunner {
public:
  StepRunner(const TransformRegistry &Registry, const SourceParser &Parser)
      : Registry(Registry), Parser(Parser) {}

  /// Applies \p S to \p In. Errors: BadInput (unknown transform or site),
  /// the transform's LegalityError, or Internal.
  llvm::Expected<StepResult> run(ParsedSource &In, const Step &S) const;

  /// \p S's parameters completed with the defaults of \p Site.
  static ParamValues completeParams(const Transform &T, const Site &Site,
                                    const ParamValues &Given,
                                    clang::ASTContext &Ctx);

private:
  llvm::Error removeUnusedLocals(ParsedSource &In, StepResult &Result) const;

  const TransformRegistry &Registry;
  const SourceParser &Parser;
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_STEPRUNNER_H
