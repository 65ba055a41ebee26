//===- ReferenceCrossCheck.h - is a written reference trusted? -*- C++ -*-===//
//
// The GPU half of --from-prompt: every candidate is compared with the
// reference; when the AgreementMatrix does not trust the reference, the
// candidates are compared with each other too (once: those verdicts do not
// depend on the reference) so that the matrix shows who agrees with whom,
// and another reference is asked for while attempts remain. It never picks
// a side: the result says whether the last reference is trusted, and only
// then is there a fastest candidate.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_REFERENCECROSSCHECK_H
#define OPTIML_DRIVER_REFERENCECROSSCHECK_H

#include "driver/FromPrompt/KernelComparer.h"

#include <functional>
#include <optional>

namespace optiml {

/// A kernel of the cross-check with its name in the matrix.
struct LabelledKernel {
  const CheckedKernel *Kernel;
  std::string Label;
  unsigned Strategy = 0; ///< Candidates only: which plan it follows.
};

struct CrossCheckResult {
  LabelledKernel Reference; ///< The last one compared.
  unsigned References = 0;  ///< How many were compared.
  AgreementMatrix Matrix;   ///< Against the last reference.
  /// Per candidate, its comparison with the last reference.
  std::vector<Comparison> WithReference;

  bool trusted() const { return Matrix.verdict() == TrustVerdict::Trusted; }
  /// The fastest candidate that agrees with a trusted reference.
  std::optional<size_t> fastest() const;
};

class ReferenceCrossCheck {
public:
  /// Another reference for attempt \p Attempt (1 for the second); nullopt
  /// when none could be written, an error when the model could not be
  /// asked.
  using NextReference =
      std::function<llvm::Expected<std::optional<LabelledKernel>>(unsigned)>;

  ReferenceCrossCheck(const KernelComparer &Cmp,
                      std::vector<LabelledKernel> Candidates)
      : Cmp(Cmp), Candidates(std::move(Candidates)) {}

  /// Compares the candidates with \p First and, while it is not trusted
  /// and fewer than \p Attempts references were compared, with those
  /// \p Next writes. \p Log gets one line per reference not trusted.
  llvm::Expected<CrossCheckResult> run(LabelledKernel First, unsigned Attempts,
                                       const NextReference &Next,
                                       llvm::raw_ostream &Log);

private:
  llvm::Expected<CrossCheckResult> against(const LabelledKernel &Ref);
  llvm::Error comparePairs();

  const KernelComparer &Cmp;
  std::vector<LabelledKernel> Candidates;
  std::optional<std::vector<std::vector<Agreement>>> Pairs;
};

} // namespace optiml

#endif // OPTIML_DRIVER_REFERENCECROSSCHECK_H
