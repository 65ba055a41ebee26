//===- StepChain.h - a known-good chain of steps as one move ----*- C++ -*-===//
//
// The optimization guides' classic sequences pass through states that are
// slower than where they started: register blocking in both dimensions
// (0.6x on SGEMM) pays off only once both operands are staged through
// shared memory (4.3x). A search that measures every state rarely deepens
// the slow one, so a chain is offered as one move and measured only at its
// end. Its spelling, `chain:register-block(site=sgemm,y=8,x=8,tile=16)`,
// carries everything its links need, so a chain step means the same in any
// state; the sites of later links are found in the state the earlier ones
// leave (staging after coarsening is at another loop).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_STEPCHAIN_H
#define OPTIML_TRANSFORM_STEPCHAIN_H

#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Transform/Step.h"
#include "optiml/Transform/TransformRegistry.h"

#include <array>
#include <memory>

namespace optiml {

/// One link: a transform whose site is looked up in the current state.
struct ChainLink {
  std::string Transform;
  ParamValues Params;     ///< Over the site's defaults.
  bool EverySite = false; ///< At each legal site in turn (every operand).
  bool Optional = false;  ///< Skipped where it has no legal site.
  /// Only sites whose suggested parameters include these (unroll's
  /// explicit mode, suggested for grid-stride loops alone).
  ParamValues Requires;
  /// Each application removes its site and renames the later ones
  /// (while-to-for: `while#1` becomes `while#0`), so sites are not
  /// remembered by name: the first legal one is taken until none is left.
  bool Consumes = false;
};

/// What running a chain produced: the source and the concrete steps, as
/// --apply would replay them.
struct ChainResult {
  std::unique_ptr<ParsedSource> Parsed;
  std::vector<Step> Steps;
};

class StepChain {
public:
  /// Chain steps are spelled `chain:<name>(...)`.
  static constexpr llvm::StringLiteral Prefix = "chain:";
  static bool isChain(const Step &S) {
    return llvm::StringRef(S.Transform).starts_with(Prefix);
  }

  /// The chains worth offering in a state whose legal steps are \p Legal,
  /// launched with \p Block, reached by \p Trace. Only where register
  /// blocking or staging has not started yet: a chain begins that work, it
  /// does not repeat it.
  static std::vector<Step> offered(llvm::ArrayRef<Step> Legal,
                                   std::array<unsigned, 3> Block,
                                   llvm::ArrayRef<Step> Trace);

  /// The chain a chain step spells. BadInput for an unknown chain or a
  /// parameter it lacks.
  static llvm::Expected<StepChain> decode(const Step &S);

  llvm::StringRef name() const { return Name; }
  const std::vector<ChainLink> &links() const { return Links; }
  /// One line for the report: what the chain does and why it is a move.
  std::string describe() const;

  /// Applies the links in turn to \p From, at sites of the kernel the
  /// chain step names. A link with no legal site is NotApplicable; a link's
  /// own refusal keeps its kind, prefixed with the chain and the steps it
  /// had taken.
  llvm::Expected<ChainResult> run(const TransformRegistry &Registry,
                                  const SourceParser &Parser,
                                  ParsedSource &From) const;

private:
  std::string Name, Kernel, Why;
  std::vector<ChainLink> Links;
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_STEPCHAIN_H
