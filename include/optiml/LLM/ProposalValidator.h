//===- ProposalValidator.h - judge a proposal before any GPU ---*- C++ -*-===//
//
// The static half of validation, the same for every proposer: a structured
// proposal is parsed as a step and applied by StepRunner (unknown
// transforms, bad parameters and illegal sites are refused with the
// transform's reason); an edit is applied as a KernelEdit and judged by
// KernelEditChecker, under the launch it carries when it carries one (put
// into the kernel's mark, where the mark is the kernel's launch, and
// checked by the spec checker); then the result must build with nvcc. What
// survives is a candidate the search may verify and time.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_PROPOSALVALIDATOR_H
#define OPTIML_LLM_PROPOSALVALIDATOR_H

#include "optiml/Eval/Builder.h"
#include "optiml/LLM/Proposal.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Transform/TransformRegistry.h"

namespace optiml {

class ProposalValidator {
public:
  /// Without \p Build (null), results are not compiled.
  ProposalValidator(const TransformRegistry &Registry,
                    const SourceParser &Parser, const Builder *Build)
      : Registry(Registry), Parser(Parser), Build(Build) {}

  /// \p R judged as a change to kernel \p Kernel of \p State.
  Proposal validate(const RawProposal &R, ParsedSource &State,
                    llvm::StringRef Kernel) const;

private:
  void structured(Proposal &P, ParsedSource &State,
                  llvm::StringRef Kernel) const;
  void edit(Proposal &P, ParsedSource &State, llvm::StringRef Kernel) const;
  /// \p State with \p Kernel's mark giving \p Launch instead: only where
  /// the mark is the kernel's launch (none in the file, its address not
  /// taken) and the spec still checks on every instance.
  llvm::Expected<std::unique_ptr<ParsedSource>>
  relaunched(ParsedSource &State, llvm::StringRef Kernel,
             llvm::StringRef Launch) const;
  /// Empty when \p Result builds; else nvcc's first error line.
  std::string buildError(ParsedSource &Result, llvm::StringRef Kernel) const;
  void accept(Proposal &P, ParsedSource &State, ParsedSource &Result,
              llvm::StringRef Kernel) const;

  const TransformRegistry &Registry;
  const SourceParser &Parser;
  const Builder *Build;
};

} // namespace optiml

#endif // OPTIML_LLM_PROPOSALVALIDATOR_H
