//===- AgreementMatrix.cpp - who computes the same outputs as whom -------===//

#include "optiml/Eval/AgreementMatrix.h"

#include "llvm/ADT/StringExtras.h"

#include <cassert>
#include <set>

using namespace optiml;

llvm::StringRef optiml::toString(Agreement A) {
  switch (A) {
  case Agreement::Unknown:
    return "unknown";
  case Agreement::Agree:
    return "agree";
  case Agreement::Disagree:
    return "disagree";
  case Agreement::Failed:
    return "failed";
  }
  return "unknown";
}

llvm::StringRef optiml::toString(TrustVerdict V) {
  switch (V) {
  case TrustVerdict::Trusted:
    return "trusted";
  case TrustVerdict::ReferenceSuspect:
    return "reference_suspect";
  case TrustVerdict::NoConsensus:
    return "no_consensus";
  }
  return "no_consensus";
}

AgreementMatrix::AgreementMatrix(std::string ReferenceLabel,
                                 std::vector<std::string> CandidateLabels,
                                 std::vector<unsigned> Strategies) {
  assert(CandidateLabels.size() == Strategies.size());
  Labels.push_back(std::move(ReferenceLabel));
  StrategyOf.push_back(0);
  for (size_t I = 0; I < CandidateLabels.size(); ++I) {
    Labels.push_back(std::move(CandidateLabels[I]));
    StrategyOf.push_back(Strategies[I]);
  }
  Cells.assign(Labels.size() * Labels.size(), Agreement::Unknown);
  for (size_t I = 0; I < Labels.size(); ++I)
    Cells[I * Labels.size() + I] = Agreement::Agree;
}

void AgreementMatrix::set(size_t A, size_t B, Agreement V) {
  assert(A < size() && B < size() && A != B);
  Cells[A * size() + B] = V;
  Cells[B * size() + A] = V;
}

Agreement AgreementMatrix::at(size_t A, size_t B) const {
  return Cells[A * size() + B];
}

std::vector<size_t> AgreementMatrix::agreeingWithReference() const {
  std::vector<size_t> Out;
  for (size_t I = 1; I < size(); ++I)
    if (at(0, I) == Agreement::Agree)
      Out.push_back(I);
  return Out;
}

unsigned
AgreementMatrix::strategiesOf(const std::vector<size_t> &Members) const {
  std::set<unsigned> Seen;
  for (size_t M : Members)
    Seen.insert(StrategyOf[M]);
  return Seen.size();
}

std::vector<size_t> AgreementMatrix::largestConsensus() const {
  // A handful of candidates (--thoughts is at most 8): every subset is
  // cheap to try, and the answer is then exact rather than greedy.
  size_t N = size() - 1;
  std::vector<size_t> Best;
  for (uint32_t Mask = 1; Mask < (1u << N); ++Mask) {
    std::vector<size_t> Members;
    for (size_t I = 0; I < N; ++I)
      if (Mask & (1u << I))
        Members.push_back(I + 1);
    bool Pairwise = true;
    for (size_t A = 0; Pairwise && A < Members.size(); ++A)
      for (size_t B = A + 1; Pairwise && B < Members.size(); ++B)
        Pairwise = at(Members[A], Members[B]) == Agreement::Agree;
    if (!Pairwise)
      continue;
    unsigned S = strategiesOf(Members), BestS = strategiesOf(Best);
    if (S > BestS || (S == BestS && Members.size() > Best.size()))
      Best = std::move(Members);
  }
  return Best;
}

TrustVerdict AgreementMatrix::verdict(unsigned MinStrategies) const {
  if (strategiesOf(agreeingWithReference()) >= MinStrategies)
    return TrustVerdict::Trusted;
  if (strategiesOf(largestConsensus()) >= MinStrategies)
    return TrustVerdict::ReferenceSuspect;
  return TrustVerdict::NoConsensus;
}

static std::string labelsOf(const AgreementMatrix &M,
                            const std::vector<size_t> &Members) {
  std::vector<std::string> Names;
  for (size_t I : Members)
    Names.push_back(M.label(I));
  return Names.empty() ? "none" : llvm::join(Names, ", ");
}

std::string AgreementMatrix::explain(unsigned MinStrategies) const {
  std::vector<size_t> WithRef = agreeingWithReference();
  std::string Agreeing =
      "candidates agreeing with the reference: " + labelsOf(*this, WithRef) +
      " (" + std::to_string(strategiesOf(WithRef)) + " strategies; " +
      std::to_string(MinStrategies) + " needed)";
  switch (verdict(MinStrategies)) {
  case TrustVerdict::Trusted:
    return "the reference is trusted: " + Agreeing;
  case TrustVerdict::ReferenceSuspect:
    return "the reference is suspect: " + labelsOf(*this, largestConsensus()) +
           " agree with each other but not with it; " + Agreeing;
  case TrustVerdict::NoConsensus:
    break;
  }
  return "no consensus: no two strategies agree on the outputs; " + Agreeing;
}

nlohmann::json AgreementMatrix::toJSON() const {
  nlohmann::json Rows = nlohmann::json::array();
  for (size_t A = 0; A < size(); ++A) {
    nlohmann::json Row = nlohmann::json::array();
    for (size_t B = 0; B < size(); ++B)
      Row.push_back(toString(at(A, B)).str());
    Rows.push_back(Row);
  }
  return {{"labels", Labels},
          {"cells", Rows},
          {"verdict", toString(verdict()).str()},
          {"explanation", explain()}};
}

static const char *symbol(Agreement A) {
  switch (A) {
  case Agreement::Agree:
    return "=";
  case Agreement::Disagree:
    return "x";
  case Agreement::Failed:
    return "!";
  case Agreement::Unknown:
    break;
  }
  return "?";
}

std::string AgreementMatrix::toMarkdown() const {
  std::string Out = "| |";
  for (const std::string &L : Labels)
    Out += " " + L + " |";
  Out += "\n|---|";
  for (size_t I = 0; I < size(); ++I)
    Out += "---|";
  Out += "\n";
  for (size_t A = 0; A < size(); ++A) {
    Out += "| " + Labels[A] + " |";
    for (size_t B = 0; B < size(); ++B)
      Out += std::string(" ") + symbol(at(A, B)) + " |";
    Out += "\n";
  }
  return Out + "\n`=` agree, `x` disagree, `!` the comparison failed, `?` "
               "not compared.\n";
}
