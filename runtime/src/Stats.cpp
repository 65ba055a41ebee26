//===- Stats.cpp - Robust summaries of timing samples ---------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Stats.h"

#include <algorithm>
#include <cmath>

namespace optiml {

double quantile(const std::vector<double> &Sorted, double Q) {
  if (Sorted.empty())
    return 0;
  double Pos = Q * static_cast<double>(Sorted.size() - 1);
  auto Lo = static_cast<size_t>(std::floor(Pos));
  size_t Hi = std::min(Lo + 1, Sorted.size() - 1);
  double Frac = Pos - static_cast<double>(Lo);
  return Sorted[Lo] + (Sorted[Hi] - Sorted[Lo]) * Frac;
}

Interval medianInterval(const std::vector<double> &Sorted) {
  size_t N = Sorted.size();
  double Half = 0.98 * std::sqrt(static_cast<double>(N));
  double Center = static_cast<double>(N) / 2;
  // 1-based ranks, clamped; converted to 0-based indices below.
  auto J = static_cast<long>(std::floor(Center - Half));
  auto K = static_cast<long>(std::ceil(Center + Half));
  J = std::max(J, 1L);
  K = std::min(K, static_cast<long>(N));
  return {Sorted[J - 1], Sorted[K - 1]};
}

double medianSpread(const std::vector<double> &Sorted) {
  if (Sorted.empty())
    return 1;
  double Median = quantile(Sorted, 0.5);
  if (Median <= 0)
    return 1;
  Interval I = medianInterval(Sorted);
  return (I.High - I.Low) / 2 / Median;
}

SampleStats summarize(std::vector<double> Samples) {
  SampleStats S;
  S.Reps = Samples.size();
  if (Samples.empty())
    return S;
  std::sort(Samples.begin(), Samples.end());
  S.MedianNs = quantile(Samples, 0.5);
  S.MinNs = Samples.front();
  S.P25Ns = quantile(Samples, 0.25);
  S.P75Ns = quantile(Samples, 0.75);
  S.Spread = medianSpread(Samples);
  S.IqrRel = S.MedianNs > 0 ? (S.P75Ns - S.P25Ns) / S.MedianNs : 0;
  return S;
}

} // namespace optiml
