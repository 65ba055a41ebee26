//===- Energy.cpp - Joules per launch from NVML ---------------------------===//
//
// Part of OptiML. nvml.h is not part of the CUDA toolkit image we build in,
// so the few entry points used are declared here with their documented C
// signatures (nvmlReturn_t is an int enum, NVML_SUCCESS = 0, nvmlDevice_t an
// opaque pointer).
//
//===----------------------------------------------------------------------===//

#include "Energy.h"

#include <chrono>
#include <dlfcn.h>

namespace optiml {

struct EnergyMeter::Api {
  using InitFn = int (*)();
  using ShutdownFn = int (*)();
  using ByBusIdFn = int (*)(const char *, void **);
  using EnergyFn = int (*)(void *, unsigned long long *);
  using ErrorStringFn = const char *(*)(int);

  void *Handle = nullptr;
  ShutdownFn Shutdown = nullptr;
  EnergyFn TotalEnergy = nullptr;
  ErrorStringFn ErrorString = nullptr;

  std::string describe(int Code) const {
    const char *S = ErrorString ? ErrorString(Code) : nullptr;
    return "NVML error " + std::to_string(Code) +
           (S ? std::string(" (") + S + ")" : "");
  }
};

EnergyMeter::~EnergyMeter() {
  if (Nvml && Nvml->Shutdown)
    Nvml->Shutdown();
  // The NVML library stays loaded: unloading it buys nothing before exit.
}

std::unique_ptr<EnergyMeter> EnergyMeter::open(const std::string &PciBusId,
                                               std::string &WhyNot) {
  auto A = std::make_unique<Api>();
  A->Handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!A->Handle) {
    const char *Why = dlerror();
    WhyNot = std::string("cannot load libnvidia-ml.so.1: ") + (Why ? Why : "?");
    return nullptr;
  }
  auto Init = reinterpret_cast<Api::InitFn>(dlsym(A->Handle, "nvmlInit_v2"));
  auto ByBusId = reinterpret_cast<Api::ByBusIdFn>(
      dlsym(A->Handle, "nvmlDeviceGetHandleByPciBusId_v2"));
  A->Shutdown =
      reinterpret_cast<Api::ShutdownFn>(dlsym(A->Handle, "nvmlShutdown"));
  A->TotalEnergy = reinterpret_cast<Api::EnergyFn>(
      dlsym(A->Handle, "nvmlDeviceGetTotalEnergyConsumption"));
  A->ErrorString =
      reinterpret_cast<Api::ErrorStringFn>(dlsym(A->Handle, "nvmlErrorString"));
  if (!Init || !ByBusId || !A->Shutdown || !A->TotalEnergy) {
    WhyNot = "libnvidia-ml.so.1 lacks nvmlInit_v2, "
             "nvmlDeviceGetHandleByPciBusId_v2 or "
             "nvmlDeviceGetTotalEnergyConsumption";
    return nullptr;
  }
  if (int Code = Init()) {
    WhyNot = "nvmlInit_v2: " + A->describe(Code);
    return nullptr;
  }
  std::unique_ptr<EnergyMeter> M(new EnergyMeter());
  M->Nvml = std::move(A); // From here on the destructor shuts NVML down.
  if (int Code = ByBusId(PciBusId.c_str(), &M->Device)) {
    WhyNot = "nvmlDeviceGetHandleByPciBusId_v2(" + PciBusId +
             "): " + M->Nvml->describe(Code);
    return nullptr;
  }
  unsigned long long Probe = 0;
  if (Error E = M->readMilliJoules(Probe)) {
    WhyNot = E.message(); // Typically "Not Supported" on older boards.
    return nullptr;
  }
  return M;
}

Error EnergyMeter::readMilliJoules(unsigned long long &Out) const {
  if (int Code = Nvml->TotalEnergy(Device, &Out))
    return Error(Status::Error, "nvmlDeviceGetTotalEnergyConsumption: " +
                                    Nvml->describe(Code));
  return Error::success();
}

Error measureEnergy(const EnergyMeter &Meter, EnergyWindowOps Gpu,
                    const EnergySettings &Settings, protocol::SideEnergy &Out) {
  Gpu.Read = [&Meter](unsigned long long &MilliJoules) {
    return Meter.readMilliJoules(MilliJoules);
  };
  Gpu.Now = [] {
    return std::chrono::duration<double>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  EnergyWindow Window;
  if (Error E = measureEnergyWindow(Gpu, Settings.WindowSeconds,
                                    Settings.SettleSeconds, Window))
    return E;
  Out.Launches = Window.Launches;
  Out.Seconds = Window.Seconds;
  Out.Joules = Window.Joules;
  Out.JoulesPerLaunch = Window.Joules / static_cast<double>(Window.Launches);
  Out.AverageWatts = Window.Seconds > 0 ? Window.Joules / Window.Seconds : 0.0;
  return Error::success();
}

/// \p Window added to the side's running totals.
static void addWindow(protocol::SideEnergy &Total,
                      const protocol::SideEnergy &Window) {
  Total.Launches += Window.Launches;
  Total.Seconds += Window.Seconds;
  Total.Joules += Window.Joules;
  Total.JoulesPerLaunch =
      Total.Launches ? Total.Joules / static_cast<double>(Total.Launches) : 0;
  Total.AverageWatts = Total.Seconds > 0 ? Total.Joules / Total.Seconds : 0;
}

Error measureEnergyRounds(const EnergyMeter &Meter,
                          const std::function<Error(protocol::Side)> &Launch,
                          const EnergyWindowOps &Gpu,
                          const EnergySettings &Settings,
                          protocol::InstanceEnergy &Out) {
  using protocol::Side;
  std::vector<double> Ratios;
  for (unsigned R = 0; R < Settings.Rounds; ++R) {
    Side First = R % 2 ? Side::Candidate : Side::Reference;
    Side Second = R % 2 ? Side::Reference : Side::Candidate;
    protocol::SideEnergy Window[2];
    for (Side S : {First, Second}) {
      auto K = static_cast<int>(S);
      EnergyWindowOps Ops = Gpu;
      Ops.Launch = [&] { return Launch(S); };
      if (Error E = measureEnergy(Meter, Ops, Settings, Window[K]))
        return E;
      addWindow(Out.of(S), Window[K]);
    }
    if (Window[1].JoulesPerLaunch > 0)
      Ratios.push_back(Window[0].JoulesPerLaunch / Window[1].JoulesPerLaunch);
  }
  if (Settings.Rounds > 1)
    Out.Ratios = std::move(Ratios);
  return Error::success();
}

} // namespace optiml
