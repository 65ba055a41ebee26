//===- Measurer.h - build, verify and time candidates -----------*- C++ -*-===//
//
// The other half of the Driver's integration: it finds each candidate's
// source by hash (the Expander made it), builds the batch in parallel and
// runs them one at a time on the GPU (Evaluator), and turns each
// evaluation into a Measurement (measurementOf). A failure to
// build or verify is a Measurement, never an error.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_MEASURER_H
#define OPTIML_SEARCH_MEASURER_H

#include "optiml/Search/Candidate.h"

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace optiml {

class Measurer {
public:
  virtual ~Measurer();

  virtual Measurement measure(const Candidate &C) = 0;

  /// A batch, results in order. Override to build in parallel before
  /// timing one at a time.
  virtual std::vector<Measurement> measureAll(llvm::ArrayRef<Candidate> Batch);

  /// Whether prepare() does anything: then the search proposes the next
  /// batch before measuring this one, so that its builds overlap the
  /// measurement.
  virtual bool preparesAhead() const { return false; }

  /// Starts, in the background, what \p Next needs before it can be
  /// measured (its nvcc builds), and returns at once. The next
  /// measureAll() measures \p Next; it waits for what was started.
  virtual void prepare(llvm::ArrayRef<Candidate> Next) { (void)Next; }
};

} // namespace optiml

#endif // OPTIML_SEARCH_MEASURER_H
