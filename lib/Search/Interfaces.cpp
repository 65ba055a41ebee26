//===- Interfaces.cpp - out-of-line anchors of the search interfaces ------===//

#include "optiml/Search/Expander.h"
#include "optiml/Search/Measurer.h"
#include "optiml/Search/SearchStrategy.h"

using namespace optiml;

Expander::~Expander() = default;
Measurer::~Measurer() = default;
SearchStrategy::~SearchStrategy() = default;

std::vector<Measurement> Measurer::measureAll(llvm::ArrayRef<Candidate> Batch) {
  std::vector<Measurement> Out;
  for (const Candidate &C : Batch)
    Out.push_back(measure(C));
  return Out;
}

void Measurer::submit(const Candidate &C) { Submitted.push_back(C); }

std::pair<Candidate, Measurement> Measurer::collect() {
  Candidate C = std::move(Submitted.front());
  Submitted.pop_front();
  Measurement M = measure(C);
  return {std::move(C), std::move(M)};
}
