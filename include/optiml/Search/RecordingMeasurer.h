//===- RecordingMeasurer.h - measure once, remember forever -----*- C++ -*-===//
//
// Wraps the real Measurer with the database: a candidate whose source was
// measured before, on this kernel, spec, device and toolchain, is answered
// from its record (Cached, no GPU time, not counted against the budget),
// failures included, so they are never retried; a new one is measured and
// recorded. With a deterministic strategy this is --resume: a second run
// replays the first for free and continues past it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_RECORDINGMEASURER_H
#define OPTIML_SEARCH_RECORDINGMEASURER_H

#include "optiml/DB/Database.h"
#include "optiml/Search/FailureTracker.h"
#include "optiml/Search/Measurer.h"

#include <deque>
#include <functional>

namespace optiml {

class RecordingMeasurer : public Measurer {
public:
  RecordingMeasurer(Database &Db, int64_t Kernel, Measurer &Inner)
      : Db(Db), Kernel(Kernel), Inner(Inner) {}

  Measurement measure(const Candidate &C) override;
  /// Looks the batch up, measures the misses as one batch, records them
  /// in one transaction.
  std::vector<Measurement> measureAll(llvm::ArrayRef<Candidate> Batch) override;
  /// Answers from the database at once; hands a miss to the real one.
  void submit(const Candidate &C) override;
  /// An answered candidate first, else the real one's next, recorded.
  std::pair<Candidate, Measurement> collect() override;

  /// The first database failure, if any: measuring goes on without the
  /// database rather than losing the search, and the Driver reports it.
  const std::string &databaseError() const { return DbError; }

  /// A batch measured while \p F turned true is not recorded: a stop
  /// requested by a signal killed its builds and runs, so its failures say
  /// nothing about the candidates (and would never be retried).
  void discardWhen(std::function<bool()> F) { Discard = std::move(F); }
  /// Every measurement it returns, recorded or new, is ranked by \p G
  /// (Measurement::Goal): the objective is the search's, not the record's.
  void rankBy(Objective G) { Goal = G; }

private:
  std::vector<Measurement> ranked(std::vector<Measurement> Out) const;
  std::optional<Measurement> lookup(const Candidate &C);
  void note(llvm::Error E);

  Database &Db;
  int64_t Kernel;
  Measurer &Inner;
  std::string DbError;
  std::function<bool()> Discard;
  Objective Goal = Objective::Time;
  /// Submitted candidates the database answered, not yet collected.
  std::deque<std::pair<Candidate, Measurement>> Answered;
};

/// The row for \p M of candidate \p C.
CandidateRecord toRecord(int64_t Kernel, const Candidate &C,
                         const Measurement &M);
/// The measurement a record stands for, marked Cached.
Measurement fromRecord(const CandidateRecord &R);

/// Replays the failures and successes of earlier runs on \p Kernel into
/// \p Failures, so a transform that kept failing starts with its prior cut.
llvm::Error loadFailureHistory(Database &Db, int64_t Kernel,
                               FailureTracker &Failures);

} // namespace optiml

#endif // OPTIML_SEARCH_RECORDINGMEASURER_H
