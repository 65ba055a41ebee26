//===- AgreementMatrix.h - who computes the same as whom ---*- C++ -*-===//
//
// A kernel written by a model from a description has no ground truth: its
// reference was written by the same model and may be plausible but wrong.
// The matrix holds what the GPU said about pairs of kernels (the reference
// and candidates, each candidate from one strategy) and decides whether the
// reference may be trusted: only when at least two candidates of different
// strategies agree with it. Independent designs that reach the same outputs
// are unlikely to share one mistake; two samples of one design are not
// independent, so they count once. When the candidates agree among
// themselves but not with the reference, the reference is the suspect; when
// nobody agrees, nothing can be trusted. The matrix never picks a side.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_AGREEMENTMATRIX_H
#define OPTIML_EVAL_AGREEMENTMATRIX_H

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace optiml {

/// What one comparison of two kernels on the GPU said.
enum class Agreement {
  Unknown,  ///< Not compared.
  Agree,    ///< Same outputs within tolerance on every instance and seed.
  Disagree, ///< Both ran; the outputs differ.
  Failed,   ///< The comparison did not run to a verdict (build, crash, ...).
};

llvm::StringRef toString(Agreement A);

/// What the matrix allows.
enum class TrustVerdict {
  Trusted,          ///< Enough independent candidates agree with it.
  ReferenceSuspect, ///< Candidates of different strategies agree with each
                    ///< other, not with the reference.
  NoConsensus,      ///< No two strategies agree with anyone.
};

llvm::StringRef toString(TrustVerdict V);

class AgreementMatrix {
public:
  /// Index 0 is the reference; candidate I (1-based) came from strategy
  /// \p Strategies[I - 1].
  AgreementMatrix(std::string ReferenceLabel,
                  std::vector<std::string> CandidateLabels,
                  std::vector<unsigned> Strategies);

  size_t size() const { return Labels.size(); }
  const std::string &label(size_t I) const { return Labels[I]; }

  /// Records the verdict of comparing \p A and \p B (symmetric).
  void set(size_t A, size_t B, Agreement V);
  Agreement at(size_t A, size_t B) const;

  /// Candidates that agree with the reference, in order.
  std::vector<size_t> agreeingWithReference() const;
  /// How many different strategies \p Members (candidate indices) cover.
  unsigned strategiesOf(const std::vector<size_t> &Members) const;
  /// The largest set of candidates that agree with each other pairwise,
  /// by strategies covered; the first such set on ties.
  std::vector<size_t> largestConsensus() const;

  /// The decision; \p MinStrategies independent agreements make the
  /// reference trusted.
  TrustVerdict verdict(unsigned MinStrategies = 2) const;
  /// One sentence saying why, for people.
  std::string explain(unsigned MinStrategies = 2) const;

  nlohmann::json toJSON() const;
  /// A table with a row and a column per kernel: `=` agree, `x` disagree,
  /// `!` failed, `?` not compared.
  std::string toMarkdown() const;

private:
  std::vector<std::string> Labels;  ///< Reference first.
  std::vector<unsigned> StrategyOf; ///< Per index; the reference's unused.
  std::vector<Agreement> Cells;     ///< size() x size(), row major.
};

} // namespace optiml

#endif // OPTIML_EVAL_AGREEMENTMATRIX_H
