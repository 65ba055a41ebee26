//===- ReferenceCrossCheck.cpp - is a written reference trusted? ---------===//

#include "driver/FromPrompt/ReferenceCrossCheck.h"

using namespace optiml;

KernelComparer::~KernelComparer() = default;

std::optional<size_t> CrossCheckResult::fastest() const {
  if (!trusted())
    return std::nullopt;
  std::optional<size_t> Best;
  for (size_t I : Matrix.agreeingWithReference()) {
    double T = WithReference[I - 1].SecondNs;
    if (!Best || (T > 0 && T < WithReference[*Best].SecondNs))
      Best = I - 1;
  }
  return Best;
}

llvm::Error ReferenceCrossCheck::comparePairs() {
  size_t N = Candidates.size();
  Pairs.emplace(N, std::vector<Agreement>(N, Agreement::Agree));
  for (size_t A = 0; A < N; ++A)
    for (size_t B = A + 1; B < N; ++B) {
      auto C = Cmp.compare(*Candidates[A].Kernel, *Candidates[B].Kernel);
      if (!C)
        return C.takeError();
      (*Pairs)[A][B] = (*Pairs)[B][A] = C->Verdict;
    }
  return llvm::Error::success();
}

llvm::Expected<CrossCheckResult>
ReferenceCrossCheck::against(const LabelledKernel &Ref) {
  std::vector<std::string> Labels;
  std::vector<unsigned> Strategies;
  for (const LabelledKernel &C : Candidates) {
    Labels.push_back(C.Label);
    Strategies.push_back(C.Strategy);
  }
  CrossCheckResult R{
      Ref, 0, AgreementMatrix(Ref.Label, Labels, Strategies), {}};
  for (size_t I = 0; I < Candidates.size(); ++I) {
    auto C = Cmp.compare(*Ref.Kernel, *Candidates[I].Kernel);
    if (!C)
      return C.takeError();
    R.Matrix.set(0, I + 1, C->Verdict);
    R.WithReference.push_back(std::move(*C));
  }
  // The pairs explain a reference that is not trusted; once known, they
  // stay in every later matrix.
  if (!R.trusted() && !Pairs)
    if (llvm::Error E = comparePairs())
      return E;
  if (!Pairs)
    return R;
  for (size_t A = 0; A < Candidates.size(); ++A)
    for (size_t B = A + 1; B < Candidates.size(); ++B)
      R.Matrix.set(A + 1, B + 1, (*Pairs)[A][B]);
  return R;
}

llvm::Expected<CrossCheckResult>
ReferenceCrossCheck::run(LabelledKernel First, unsigned Attempts,
                         const NextReference &Next, llvm::raw_ostream &Log) {
  LabelledKernel Ref = std::move(First);
  for (unsigned Attempt = 1;; ++Attempt) {
    auto R = against(Ref);
    if (!R)
      return R.takeError();
    R->References = Attempt;
    if (R->trusted() || Attempt >= Attempts)
      return R;
    Log << "clang-optiml: " << R->Matrix.explain()
        << "; writing the reference again\n";
    auto Another = Next(Attempt);
    if (!Another)
      return Another.takeError();
    if (!*Another)
      return R;
    Ref = std::move(**Another);
  }
}
