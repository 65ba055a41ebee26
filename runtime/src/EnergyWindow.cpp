//===- EnergyWindow.cpp - Joules per launch between counter ticks ---------===//

#include "EnergyWindow.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <string>

namespace optiml {

namespace {

/// GPU time between two markers: a finished-launch count is exact to one
/// marker, 0.2% of a half-second window.
constexpr double MarkerSpacingSeconds = 1e-3;
/// Markers kept in flight: about 32 ms of work queued, so that the GPU does
/// not run dry while the host reads the counter or waits for a core (nvcc
/// builds beside a search took it long enough to starve a 4 ms queue).
constexpr unsigned QueuedMarkers = 32;
/// At most this many launches queued at once: CUDA's launch queue holds
/// about a thousand, and a full one blocks the host in the launch call,
/// which would delay the counter's readings past its steps.
constexpr unsigned MaxQueuedLaunches = 960;
/// GPU time spent estimating a launch's duration.
constexpr double CalibrationSeconds = 5e-3;

static_assert(QueuedMarkers < MarkerSlots, "a slot is reused while pending");

/// A counter step: its value, when the host saw it, and how many launches
/// the GPU had finished by then.
struct Step {
  unsigned long long MilliJoules = 0;
  double Time = 0;
  unsigned long long Finished = 0;
};

class WindowRun {
public:
  explicit WindowRun(const EnergyWindowOps &Ops) : Ops(Ops) {}

  Error calibrate();
  /// Waits, keeping the GPU busy, for the counter to move away from
  /// \p Last at or after \p NotBefore; fails after \p Deadline.
  Error nextStep(unsigned long long &Last, double NotBefore, double Deadline,
                 Step &Out);

private:
  Error fill();
  Error drain();

  struct Marker {
    unsigned Slot;
    unsigned long long Upto; ///< Launches enqueued before it.
  };

  const EnergyWindowOps &Ops;
  std::deque<Marker> Pending;
  unsigned NextSlot = 0;
  unsigned PerMarker = 1;
  unsigned long long Enqueued = 0, Finished = 0;
};

/// Sets the launches per marker from a few synchronized launches (the first
/// one alone, so that lazy module loading is not timed).
Error WindowRun::calibrate() {
  if (Error E = Ops.Launch())
    return E;
  if (Error E = Ops.Sync())
    return E;
  double Start = Ops.Now(), Elapsed = 0;
  unsigned Launches = 0;
  do {
    for (unsigned K = 0; K < 8; ++K, ++Launches)
      if (Error E = Ops.Launch())
        return E;
    if (Error E = Ops.Sync())
      return E;
    Elapsed = Ops.Now() - Start;
  } while (Elapsed < CalibrationSeconds);
  double PerLaunch = Elapsed / Launches;
  double Wanted = std::floor(MarkerSpacingSeconds / PerLaunch);
  PerMarker = static_cast<unsigned>(std::clamp(
      Wanted, 1.0, static_cast<double>(MaxQueuedLaunches / QueuedMarkers)));
  return Error::success();
}

Error WindowRun::fill() {
  while (Pending.size() < QueuedMarkers) {
    for (unsigned K = 0; K < PerMarker; ++K, ++Enqueued)
      if (Error E = Ops.Launch())
        return E;
    if (Error E = Ops.Mark(NextSlot))
      return E;
    Pending.push_back({NextSlot, Enqueued});
    NextSlot = (NextSlot + 1) % MarkerSlots;
  }
  return Error::success();
}

Error WindowRun::drain() {
  while (!Pending.empty()) {
    bool Passed = false;
    if (Error E = Ops.Passed(Pending.front().Slot, Passed))
      return E;
    if (!Passed)
      break;
    Finished = Pending.front().Upto;
    Pending.pop_front();
  }
  return Error::success();
}

Error WindowRun::nextStep(unsigned long long &Last, double NotBefore,
                          double Deadline, Step &Out) {
  for (;;) {
    if (Error E = fill())
      return E;
    if (Error E = drain())
      return E;
    unsigned long long Now = 0;
    if (Error E = Ops.Read(Now))
      return E;
    double Time = Ops.Now();
    if (Now != Last && Time >= NotBefore) {
      Out = {Now, Time, Finished};
      Last = Now;
      return Error::success();
    }
    Last = Now;
    if (Time > Deadline)
      return Error(Status::Error,
                   "the NVML energy counter did not change for the "
                   "measurement's window; energy not measured");
  }
}

/// \p Name's value as a number in [\p Lo, \p Hi], into \p Out; unset
/// leaves \p Out.
Error numberFromEnvironment(const char *Name, double Lo, double Hi,
                            double &Out) {
  const char *Text = std::getenv(Name);
  if (!Text || !*Text)
    return Error::success();
  char *End = nullptr;
  double Value = std::strtod(Text, &End);
  if (*End || !(Value >= Lo && Value <= Hi))
    return Error(Status::BadPlan,
                 std::string(Name) + "='" + Text + "' is not a number in [" +
                     std::to_string(Lo) + ", " + std::to_string(Hi) + "]");
  Out = Value;
  return Error::success();
}

} // namespace

Error EnergySettings::fromEnvironment(EnergySettings &Out) {
  Out = EnergySettings();
  double Rounds = Out.Rounds;
  if (Error E = numberFromEnvironment("OPTIML_ENERGY_ROUNDS", 1, 64, Rounds))
    return E;
  if (Rounds != std::floor(Rounds))
    return Error(Status::BadPlan,
                 "OPTIML_ENERGY_ROUNDS must be a whole number");
  Out.Rounds = static_cast<unsigned>(Rounds);
  if (Error E = numberFromEnvironment("OPTIML_ENERGY_WINDOW_S", 0.05, 60,
                                      Out.WindowSeconds))
    return E;
  return numberFromEnvironment("OPTIML_ENERGY_SETTLE_S", 0, 60,
                               Out.SettleSeconds);
}

Error measureEnergyWindow(const EnergyWindowOps &Ops, double MinSeconds,
                          double SettleSeconds, EnergyWindow &Out,
                          double StallSeconds) {
  WindowRun Run(Ops);
  if (Error E = Run.calibrate())
    return E;
  unsigned long long Last = 0;
  if (Error E = Ops.Read(Last))
    return E;
  Step First, Second;
  double Start = Ops.Now() + SettleSeconds;
  if (Error E = Run.nextStep(Last, Start, Start + StallSeconds, First))
    return E;
  double End = First.Time + MinSeconds;
  if (Error E = Run.nextStep(Last, End, End + StallSeconds, Second))
    return E;
  if (Error E = Ops.Sync())
    return E;
  Out.Launches = Second.Finished - First.Finished;
  Out.Seconds = Second.Time - First.Time;
  Out.Joules =
      static_cast<double>(Second.MilliJoules - First.MilliJoules) / 1000.0;
  if (Out.Launches == 0)
    return Error(Status::Error, "no launch finished between two steps of the "
                                "NVML energy counter; energy not measured");
  return Error::success();
}

} // namespace optiml
