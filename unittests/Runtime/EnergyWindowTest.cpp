//===- EnergyWindowTest.cpp - windows between counter steps ---------------===//
//
// A simulated GPU runs launches of a fixed length one after another; a
// simulated NVML counter steps every 100 ms to the energy used so far. The
// window must report the launches' own energy, where readings at arbitrary
// moments are off by up to a step.
//
//===----------------------------------------------------------------------===//

#include "EnergyWindow.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

using namespace optiml;

namespace {

class SimulatedGpu {
public:
  double LaunchSeconds = 200e-6;
  double BusyWatts = 300, IdleWatts = 70;
  double StepSeconds = 0.1, StepOffset = 0.037;
  bool CounterStuck = false;
  /// Every this many counter reads the host loses a core for StallSeconds.
  unsigned StallEvery = 0;
  double StallSeconds = 0;

  EnergyWindowOps ops() {
    EnergyWindowOps Ops;
    Ops.Launch = [this] {
      Host += 2e-6;
      double Start = std::max(Host, FreeAt);
      Starts.push_back(Start);
      FreeAt = Start + LaunchSeconds;
      return Error::success();
    };
    Ops.Mark = [this](unsigned Slot) {
      Host += 1e-6;
      Markers[Slot] = Starts.size();
      return Error::success();
    };
    Ops.Passed = [this](unsigned Slot, bool &Passed) {
      Host += 1e-6;
      size_t Upto = Markers[Slot];
      Passed = Upto == 0 || Starts[Upto - 1] + LaunchSeconds <= Host;
      return Error::success();
    };
    Ops.Sync = [this] {
      Host = std::max(Host, FreeAt);
      return Error::success();
    };
    Ops.Read = [this](unsigned long long &MilliJoules) {
      Host += 60e-6;
      if (StallEvery && ++Reads % StallEvery == 0)
        Host += StallSeconds;
      double Step = std::floor((Host - StepOffset) / StepSeconds);
      double At = CounterStuck ? 0 : StepOffset + Step * StepSeconds;
      MilliJoules = static_cast<unsigned long long>(joulesUntil(At) * 1000);
      return Error::success();
    };
    Ops.Now = [this] { return Host; };
    return Ops;
  }

  double launchJoules() const { return BusyWatts * LaunchSeconds; }

private:
  /// Idle power all along, plus the busy part of every launch begun by \p T.
  double joulesUntil(double T) const {
    double Busy = 0;
    for (double Start : Starts) {
      if (Start >= T)
        break;
      Busy += std::min(T, Start + LaunchSeconds) - Start;
    }
    return IdleWatts * std::max(T, 0.0) + (BusyWatts - IdleWatts) * Busy;
  }

  double Host = 0, FreeAt = 0;
  unsigned Reads = 0;
  std::vector<double> Starts;
  size_t Markers[MarkerSlots] = {};
};

TEST(EnergyWindowTest, MeasuresBetweenCounterSteps) {
  SimulatedGpu Gpu;
  EnergyWindow W;
  Error E = measureEnergyWindow(Gpu.ops(), 0.5, 0.0, W);
  ASSERT_FALSE(E) << E.message();
  // The window spans whole steps of the counter, so at least 0.5 s.
  EXPECT_GE(W.Seconds, 0.5);
  EXPECT_LT(W.Seconds, 0.7);
  double PerLaunch = W.Joules / static_cast<double>(W.Launches);
  EXPECT_NEAR(PerLaunch / Gpu.launchJoules(), 1.0, 0.01);
}

TEST(EnergyWindowTest, ShortLaunchesKeepTheGpuBusy) {
  // A 20 us launch: markers are many launches apart, and the queue must
  // not run dry while the host reads the counter.
  SimulatedGpu Gpu;
  Gpu.LaunchSeconds = 20e-6;
  EnergyWindow W;
  Error E = measureEnergyWindow(Gpu.ops(), 0.3, 0.0, W);
  ASSERT_FALSE(E) << E.message();
  double PerLaunch = W.Joules / static_cast<double>(W.Launches);
  EXPECT_NEAR(PerLaunch / Gpu.launchJoules(), 1.0, 0.01);
}

TEST(EnergyWindowTest, HostStallsDoNotStarveTheGpu) {
  // The host loses 10 ms now and then (nvcc beside the search): the queued
  // launches keep the GPU busy meanwhile, so no idle power is counted.
  SimulatedGpu Gpu;
  Gpu.LaunchSeconds = 50e-6;
  Gpu.StallEvery = 40;
  Gpu.StallSeconds = 10e-3;
  EnergyWindow W;
  Error E = measureEnergyWindow(Gpu.ops(), 0.5, 0.0, W);
  ASSERT_FALSE(E) << E.message();
  EXPECT_NEAR(W.Joules / static_cast<double>(W.Launches) / Gpu.launchJoules(),
              1.0, 0.01);
}

TEST(EnergyWindowTest, StuckCounterIsAnErrorNotAHang) {
  SimulatedGpu Gpu;
  Gpu.CounterStuck = true;
  EnergyWindow W;
  Error E = measureEnergyWindow(Gpu.ops(), 0.5, 0.0, W, /*StallSeconds=*/0.3);
  ASSERT_TRUE(E);
  EXPECT_NE(E.message().find("did not change"), std::string::npos)
      << E.message();
}

TEST(EnergyWindowTest, SettlingComesBeforeTheWindow) {
  SimulatedGpu Gpu;
  EnergyWindowOps Ops = Gpu.ops();
  EnergyWindow W;
  Error E = measureEnergyWindow(Ops, 0.5, 0.4, W);
  ASSERT_FALSE(E) << E.message();
  EXPECT_GE(W.Seconds, 0.5);
  // The launches before the window ran for the settling time.
  EXPECT_GE(Ops.Now() - W.Seconds, 0.4);
  EXPECT_NEAR(W.Joules / static_cast<double>(W.Launches) / Gpu.launchJoules(),
              1.0, 0.01);
}

TEST(EnergyWindowTest, SettingsComeFromTheEnvironment) {
  unsetenv("OPTIML_ENERGY_ROUNDS");
  unsetenv("OPTIML_ENERGY_WINDOW_S");
  unsetenv("OPTIML_ENERGY_SETTLE_S");
  EnergySettings S;
  ASSERT_FALSE(EnergySettings::fromEnvironment(S));
  EXPECT_EQ(S.Rounds, EnergySettings().Rounds);
  EXPECT_EQ(S.WindowSeconds, EnergySettings().WindowSeconds);

  setenv("OPTIML_ENERGY_ROUNDS", "2", 1);
  setenv("OPTIML_ENERGY_WINDOW_S", "1.5", 1);
  setenv("OPTIML_ENERGY_SETTLE_S", "0", 1);
  ASSERT_FALSE(EnergySettings::fromEnvironment(S));
  EXPECT_EQ(S.Rounds, 2u);
  EXPECT_EQ(S.WindowSeconds, 1.5);
  EXPECT_EQ(S.SettleSeconds, 0.0);

  for (const char *Bad : {"abc", "0", "1.5x"}) {
    setenv("OPTIML_ENERGY_WINDOW_S", Bad, 1);
    Error E = EnergySettings::fromEnvironment(S);
    ASSERT_TRUE(E) << Bad;
    EXPECT_NE(E.message().find("OPTIML_ENERGY_WINDOW_S"), std::string::npos);
  }
  setenv("OPTIML_ENERGY_WINDOW_S", "1", 1);
  setenv("OPTIML_ENERGY_ROUNDS", "2.5", 1);
  EXPECT_TRUE(bool(EnergySettings::fromEnvironment(S)));
  unsetenv("OPTIML_ENERGY_ROUNDS");
  unsetenv("OPTIML_ENERGY_WINDOW_S");
  unsetenv("OPTIML_ENERGY_SETTLE_S");
}

} // namespace
