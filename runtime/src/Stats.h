//===- Stats.h - Robust summaries of timing samples -------------*- C++ -*-===//
//
// Part of OptiML. Kernel times are skewed (a few slow outliers from clocks,
// interrupts, other tenants), so everything is order statistics: the median,
// quartiles, and a distribution-free confidence interval of the median.
//
// "spread" throughout the runner is the half-width of the 95% confidence
// interval of the median divided by the median: with n sorted samples the
// interval is [x_(j), x_(k)], j = floor(n/2 - 0.98 sqrt(n)), k = ceil(n/2 +
// 0.98 sqrt(n)) (1-based, clamped to [1, n]), the normal approximation of the
// binomial interval for a median. Unlike the interquartile range it shrinks
// as repetitions accumulate, which is what "the median has settled" means.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_STATS_H
#define OPTIML_RUNTIME_STATS_H

#include "optiml/Protocol/TimingReport.h"

#include <cstddef>
#include <vector>

namespace optiml {

/// The result's summary of one side: median, min, quartiles, the spread
/// defined above, and IqrRel = (P75 - P25) / median, how much single runs
/// vary.
using SampleStats = protocol::TimeSummary;

/// Summarises \p Samples (unsorted; copied). No samples give all zeros and
/// a spread of 1.
SampleStats summarize(std::vector<double> Samples);

/// Linear-interpolation quantile, \p Q in [0, 1], of sorted \p Sorted.
double quantile(const std::vector<double> &Sorted, double Q);

/// The 95% confidence interval of the median defined above, for sorted,
/// non-empty \p Sorted.
struct Interval {
  double Low = 0, High = 0;
};
Interval medianInterval(const std::vector<double> &Sorted);

/// The spread defined above, for sorted \p Sorted.
double medianSpread(const std::vector<double> &Sorted);

} // namespace optiml

#endif // OPTIML_RUNTIME_STATS_H
