//===- Energy.h - Joules per launch from NVML -------------------*- C++ -*-===//
//
// Part of OptiML. NVML is loaded at run time with dlopen: it ships with the
// driver, not the toolkit, and a machine without it (or a GPU without an
// energy counter) only loses the energy numbers.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_ENERGY_H
#define OPTIML_RUNTIME_ENERGY_H

#include "EnergyWindow.h"
#include "Status.h"

#include "optiml/Protocol/EnergyReport.h"

#include <functional>
#include <memory>
#include <string>

namespace optiml {

class EnergyMeter {
public:
  EnergyMeter(const EnergyMeter &) = delete;
  EnergyMeter &operator=(const EnergyMeter &) = delete;
  ~EnergyMeter();

  /// Opens NVML and the device at \p PciBusId (CUDA and NVML number devices
  /// differently; the PCI bus id is common to both). Returns null and sets
  /// \p WhyNot when energy cannot be measured.
  static std::unique_ptr<EnergyMeter> open(const std::string &PciBusId,
                                           std::string &WhyNot);

  /// The board's energy counter since driver load, in millijoules.
  Error readMilliJoules(unsigned long long &Out) const;

private:
  EnergyMeter() = default;

  struct Api;
  std::unique_ptr<Api> Nvml;
  void *Device = nullptr;
};

/// One window (measureEnergyWindow) of \p Settings on \p Gpu, whose Read
/// and Now this fills in, reported per launch.
Error measureEnergy(const EnergyMeter &Meter, EnergyWindowOps Gpu,
                    const EnergySettings &Settings, protocol::SideEnergy &Out);

/// \p Settings' rounds of one measureEnergy window a side,
/// the side measured first alternating (reference first in even rounds),
/// so that a GPU that warms over the run favours neither. \p Launch
/// enqueues one launch of the side it is given; \p Gpu gives the markers
/// and the synchronization. Fills both sides' totals and, for more than
/// one round, the per-round ratios.
Error measureEnergyRounds(const EnergyMeter &Meter,
                          const std::function<Error(protocol::Side)> &Launch,
                          const EnergyWindowOps &Gpu,
                          const EnergySettings &Settings,
                          protocol::InstanceEnergy &Out);

} // namespace optiml

#endif // OPTIML_RUNTIME_ENERGY_H
