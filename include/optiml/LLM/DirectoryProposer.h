//===- DirectoryProposer.h - proposals made earlier, elsewhere --*- C++ -*-===//
//
// GPU machines often have no network. `--propose -o DIR` on a machine that
// reaches the model writes DIR/proposals.json (every proposal with its
// verdict, an edit's code included); `--optimize --proposals-from=DIR` on
// the GPU machine reads it back through this proposer, which answers the
// first state it is asked about (the original kernel, the search's root)
// with those proposals, judged again against that state, and later states
// with none. No endpoint is needed.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_DIRECTORYPROPOSER_H
#define OPTIML_LLM_DIRECTORYPROPOSER_H

#include "optiml/LLM/ProposalValidator.h"
#include "optiml/LLM/Proposer.h"

namespace optiml {

class DirectoryProposer : public Proposer {
public:
  /// Reads \p Dir/proposals.json, made by --propose for kernel \p Kernel.
  /// A missing or malformed listing, or one for another kernel, is
  /// BadInput with one line.
  static llvm::Expected<DirectoryProposer>
  load(llvm::StringRef Dir, llvm::StringRef Kernel,
       const ProposalValidator &Validator);

  llvm::Expected<ProposalBatch> propose(const ProposalContext &C) override;

  /// The source hash the proposals were made on.
  llvm::StringRef sourceHash() const { return SourceHash; }
  size_t size() const { return Raw.size(); }

private:
  DirectoryProposer(const ProposalValidator &Validator)
      : Validator(&Validator) {}

  const ProposalValidator *Validator;
  std::string Dir, SourceHash, Model, PromptVersion;
  std::vector<RawProposal> Raw;
  std::vector<std::string> Notes; ///< Entries that could not be read.
  bool Answered = false;
};

} // namespace optiml

#endif // OPTIML_LLM_DIRECTORYPROPOSER_H
