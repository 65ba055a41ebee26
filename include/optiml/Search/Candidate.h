//===- Candidate.h - one state the search asks to measure -------*- C++ -*-===//

#ifndef OPTIML_SEARCH_CANDIDATE_H
#define OPTIML_SEARCH_CANDIDATE_H

#include "optiml/Search/Measurement.h"
#include "optiml/Search/Trace.h"

#include <cstdint>

namespace optiml {

struct Candidate {
  uint64_t Id = 0;        ///< Unique within one search.
  Trace Steps;            ///< Replaying it from the original gives Hash.
  std::string Hash;       ///< Content hash of the candidate's source.
  std::string ParentHash; ///< Empty for the original.
  /// The transform of the move from the parent, or the chain's name
  /// (`chain:register-block`) when the move took several steps; empty for
  /// the original. What failures and learned priors are charged to.
  std::string Move;
};

struct CandidateResult {
  uint64_t Id = 0;
  Measurement Result;
};

} // namespace optiml

#endif // OPTIML_SEARCH_CANDIDATE_H
