//===- SearchExpander.h - the search's moves over real sources -*- C++ -*-===//
//
// The Driver's Expander: states are rewritten sources keyed by their
// content hash, moves are the legal steps ActionSpace finds (default
// parameters plus a few neighbours from each domain), applying one is
// StepRunner's job, and priors come from the micro-profiler's findings on
// the state's own measurement. Known-good chains (StepChain) are moves
// too, applied link by link. An LlmGuide, when set, adds the model's moves
// and priors on top. A usage probe, when set, builds the moves that could
// take a local array into registers and ranks those whose build shows it
// gone first.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_SEARCHEXPANDER_H
#define OPTIML_DRIVER_SEARCHEXPANDER_H

#include "optiml/Eval/ResourceUsage.h"
#include "optiml/IR/KernelInfo.h"
#include "optiml/Profile/ProfileInput.h"
#include "optiml/Rewrite/ParsedSource.h"
#include "optiml/Search/Expander.h"
#include "optiml/Search/HistoryPriors.h"
#include "optiml/Spec/KernelSpec.h"
#include "optiml/Transform/StepChain.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <functional>
#include <memory>

namespace optiml {

class LlmGuide;
class SourceParser;
class TransformRegistry;

/// What the search needs to know about one source: its kernel as the
/// finder sees it and its own spec (a block-size step rewrites the mark).
struct StateKernel {
  KernelInfo Kernel;
  std::optional<KernelSpec> Spec; ///< Only when the source carries a mark.
};

/// Builds sources (without a GPU) and returns what ptxas reported for the
/// kernel in each, in order; nothing where a build failed.
using UsageProbe = std::function<std::vector<std::optional<ResourceUsage>>(
    llvm::ArrayRef<const KernelSource *>)>;

class SearchExpander : public Expander {
public:
  /// \p Original is the parsed input; \p Kernel the qualified name of the
  /// kernel to optimize; \p SpecPath the --spec override (may be empty).
  SearchExpander(const TransformRegistry &Registry, const SourceParser &Parser,
                 std::unique_ptr<ParsedSource> Original, std::string Kernel,
                 std::string SpecPath, std::string Arch);

  std::string rootHash() override { return Root; }
  llvm::Expected<std::vector<ScoredAction>>
  actions(const StateView &S) override;
  llvm::Expected<AppliedMove> apply(const Trace &From, llvm::StringRef FromHash,
                                    const Step &Next) override;
  std::optional<std::string> sourceText(llvm::StringRef Hash) override;
  /// parameterNeighbours of \p Paid one place either side, of the
  /// transforms searched; none for a chain or a model's edit.
  std::vector<Step> retunes(const Step &Paid) override;
  void observe(const Trace &Steps, llvm::StringRef Hash,
               const Measurement &Result) override;

  /// Lets a language model (or recorded proposals) add moves and priors;
  /// without one the moves are the heuristic's alone.
  void setGuide(LlmGuide *G) { Guide = G; }
  /// What each transform did on this GPU in earlier searches: it scales
  /// the priors of every state (the model's, when there is one, come after).
  void setHistory(HistoryPriors H) { History = std::move(H); }
  /// Lets a state whose kernel keeps an array in local memory have the
  /// moves that could take it into registers built before any is measured
  /// (screenLocalArray).
  void setUsageProbe(UsageProbe P) { Probe = std::move(P); }

  /// Moves of these transforms only (--transforms, --exclude and the
  /// numerics rule, TransformChoice); a model's free-form edits are not
  /// transforms and stay. Without a call, every transform.
  void limitTo(llvm::ArrayRef<std::string> Transforms);

  /// The legal moves of \p Hash without priors, in ActionSpace's order.
  llvm::Expected<std::vector<Step>> legalSteps(llvm::StringRef Hash);
  /// The source of \p Hash; null when this expander never made it.
  const KernelSource *source(llvm::StringRef Hash) const;
  /// The kernel and spec of \p Hash, for the measurer and the geometry.
  llvm::Expected<StateKernel> stateKernel(llvm::StringRef Hash);
  /// Seconds the rewrite that made \p Hash took (the step and the re-parse);
  /// none for the original or a state this expander did not make.
  std::optional<double> rewriteSeconds(llvm::StringRef Hash) const;

private:
  ParsedSource *parsed(llvm::StringRef Hash) const;
  bool allowed(llvm::StringRef Transform) const;
  bool allowed(const StepChain &C) const;
  std::optional<LaunchGeometry> geometry(llvm::StringRef Hash);
  std::optional<ConcreteInstance> firstInstance(llvm::StringRef Hash);
  /// Recipe transforms' steps (TransformDescriptor::Recipe) at \p Prior.
  void rankRecipes(std::vector<ScoredAction> &Moves, double Prior) const;
  void addChains(const StateView &S, llvm::ArrayRef<Step> Legal,
                 std::vector<ScoredAction> &Moves);
  void screenLocalArray(const StateView &S, std::vector<ScoredAction> &Moves);
  llvm::Expected<ChainResult> applyStep(ParsedSource &From, const Step &Next);

  const TransformRegistry &Registry;
  const SourceParser &Parser;
  std::string Kernel, SpecPath, Arch, Root;
  llvm::StringMap<std::unique_ptr<ParsedSource>> Sources;
  llvm::StringMap<double> RewriteSeconds;
  LlmGuide *Guide = nullptr;
  HistoryPriors History;
  UsageProbe Probe;
  std::optional<llvm::StringSet<>> Allowed; ///< Unset: every transform.
};

/// Other values of a step's parameters worth trying: for each parameter,
/// the domain's values up to \p Reach places either side of the chosen
/// one, the others kept. Two is cheap enough to measure and wide enough to
/// matter (unroll 2/8/16 beside 4; block x 64..1024 beside 256).
/// Parameters in the transform's order; a parameter's values in domain
/// order, or, with \p LargerFirst, a number's larger values first.
std::vector<Step> parameterNeighbours(const Step &Default,
                                      const TransformRegistry &Registry,
                                      int Reach = 2, bool LargerFirst = false);

} // namespace optiml

#endif // OPTIML_DRIVER_SEARCHEXPANDER_H
