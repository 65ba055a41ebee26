//===- EnergyWindow.h - Joules per launch between counter ticks -*- C++ -*-===//
//
// Part of OptiML. NVML's energy counter moves in steps, every 20-100 ms on
// recent boards. Read at arbitrary moments around a half-second window, it
// adds up to one step's worth of energy at each end: up to 20% of the
// window, which is the spread the first energy measurements showed. So the
// window here starts and ends at the moments the counter steps, while the
// GPU runs the kernel back to back with no host synchronization in between,
// and counts the launches the GPU finished between the two steps by markers
// (CUDA events) recorded every few launches.
//
// Nothing here calls CUDA or NVML: the runner passes the operations in, and
// the unit tests pass a simulated GPU and counter.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_ENERGYWINDOW_H
#define OPTIML_RUNTIME_ENERGYWINDOW_H

#include "Status.h"

#include <functional>

namespace optiml {

/// What one window needs from the GPU, the counter and the clock.
struct EnergyWindowOps {
  /// Enqueues one launch.
  std::function<Error()> Launch;
  /// Records marker \p Slot (0 .. MarkerSlots - 1) behind the launches
  /// enqueued so far.
  std::function<Error(unsigned Slot)> Mark;
  /// Whether the GPU has passed marker \p Slot.
  std::function<Error(unsigned Slot, bool &Passed)> Passed;
  /// Waits for everything enqueued.
  std::function<Error()> Sync;
  /// The energy counter, in millijoules.
  std::function<Error(unsigned long long &MilliJoules)> Read;
  /// A monotonic clock, in seconds.
  std::function<double()> Now;
};

/// How many markers the caller must provide slots for.
constexpr unsigned MarkerSlots = 64;

/// One window's measurement.
struct EnergyWindow {
  unsigned long long Launches = 0; ///< Finished between the two steps.
  double Seconds = 0;              ///< Between the two steps.
  double Joules = 0;               ///< The counter's difference.
};

/// How energy is measured: rounds of one window a side, each window at
/// least WindowSeconds long, started after SettleSeconds of launches of the
/// side (the board's power reading trails the work, so a window begun at
/// once would still hold some of the other side's power).
struct EnergySettings {
  unsigned Rounds = 4;
  double WindowSeconds = 0.5;
  double SettleSeconds = 0.2;

  /// The defaults, each replaced by OPTIML_ENERGY_ROUNDS,
  /// OPTIML_ENERGY_WINDOW_S or OPTIML_ENERGY_SETTLE_S where set (for
  /// measuring the measurement: scripts/energy-noise.sh). A value that is
  /// not a number in range is an error naming the variable.
  static Error fromEnvironment(EnergySettings &Out);
};

/// Runs launches back to back and measures the energy between the first
/// counter step after \p SettleSeconds and the first step \p MinSeconds
/// after it. A counter that does not step for \p StallSeconds is an error
/// (a driver that never updates it would otherwise hang the runner).
Error measureEnergyWindow(const EnergyWindowOps &Ops, double MinSeconds,
                          double SettleSeconds, EnergyWindow &Out,
                          double StallSeconds = 2.0);

} // namespace optiml

#endif // OPTIML_RUNTIME_ENERGYWINDOW_H
