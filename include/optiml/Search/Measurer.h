//===- Measurer.h - build, verify and time candidates -----------*- C++ -*-===//
//
// The other half of the Driver's integration: it finds each candidate's
// source by hash (the Expander made it), builds candidates in parallel and
// runs them one at a time on each GPU (Evaluator), and turns each
// evaluation into a Measurement (measurementOf). A failure to build or
// verify is a Measurement, never an error.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_MEASURER_H
#define OPTIML_SEARCH_MEASURER_H

#include "optiml/Search/Candidate.h"

#include "llvm/ADT/ArrayRef.h"

#include <deque>
#include <utility>
#include <vector>

namespace optiml {

class Measurer {
public:
  virtual ~Measurer();

  virtual Measurement measure(const Candidate &C) = 0;
  /// A batch, results in order. Override to build in parallel before
  /// timing one at a time.
  virtual std::vector<Measurement> measureAll(llvm::ArrayRef<Candidate> Batch);

  /// Pipelined measuring, for a search that keeps several candidates in
  /// flight: submit() hands one over and returns at once (an override
  /// starts its build); collect() waits for one that is done, in whatever
  /// order they finish, and returns it with its measurement. By default
  /// collect() measures the oldest one submitted, then and there.
  virtual void submit(const Candidate &C);
  /// Needs a candidate submitted and not yet collected.
  virtual std::pair<Candidate, Measurement> collect();

  /// Another search starts with this measurer: what it learned from the
  /// last one's results (the best speedup that screening measures
  /// against) is forgotten, so that each search is measured as if alone.
  virtual void newSearch() {}

private:
  std::deque<Candidate> Submitted;
};

} // namespace optiml

#endif // OPTIML_SEARCH_MEASURER_H
