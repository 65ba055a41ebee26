//===- OptimizeSearch.h - the search half of --optimize -------*- C++ -*-===//
//
// Everything --optimize does once the Expander and the Measurer exist:
// the database memo, the strategy, the loop with its progress display, the
// output file and the report. Kept apart from the GPU setup so a test can
// run it with a fake Measurer.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_OPTIMIZESEARCH_H
#define OPTIML_DRIVER_OPTIMIZESEARCH_H

#include "driver/Optimize/OptimizeOptions.h"
#include "optiml/DB/Database.h"
#include "optiml/Search/Expander.h"
#include "optiml/Search/Measurer.h"
#include "optiml/Search/SearchLoop.h"

namespace optiml {

class LlmGuide;

struct OptimizeOutcome {
  StopReason Why = StopReason::Exhausted;
  bool Improved = false;
  double BestSpeedup = 1;
  /// "1.42x over the original", or the gain under another objective
  /// (describeBest()).
  std::string Best;
  std::string BestTrace;
  std::string BestSource; ///< The best verified text, as measured.
  std::string Written;    ///< BestSource as written to -o (styled).
  unsigned Evaluated = 0, Failed = 0, Cached = 0, Twins = 0;
  double Seconds = 0; ///< The search's wall time.
  std::string ReportMarkdown, ReportJSON, ReportHTML; ///< Paths written.
};

/// BadInput unless \p Name is a strategy createStrategy knows.
llvm::Error checkStrategyName(llvm::StringRef Name);

/// BadInput when -o is missing or names \p Input (by real path).
llvm::Error checkOutputPath(llvm::StringRef Input, llvm::StringRef Output);

/// PREFIX of the report files: --report, else OUT without its extension
/// plus ".report".
std::string reportPrefix(const OptimizeOptions &O);

/// Runs the search of \p KernelName (database problem \p KernelId) and
/// writes the output and the reports. \p Log gets the progress: one
/// rewritten line when \p Interactive, plain lines otherwise. \p Guide,
/// when the expander has one, adds its usage to the report.
llvm::Expected<OptimizeOutcome>
runOptimizeSearch(Expander &E, Measurer &M, Database &Db, int64_t KernelId,
                  llvm::StringRef KernelName, const OptimizeOptions &O,
                  llvm::raw_ostream &Log, bool Interactive,
                  const LlmGuide *Guide = nullptr);

} // namespace optiml

#endif // OPTIML_DRIVER_OPTIMIZESEARCH_H
