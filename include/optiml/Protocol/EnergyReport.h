//===- EnergyReport.h - Joules per launch from NVML -------------*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md, "Energy"): the result's
// "energy". A machine without NVML or without the energy counter reports
// "available": false with the reason; that is not an error.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_ENERGYREPORT_H
#define OPTIML_PROTOCOL_ENERGYREPORT_H

#include "optiml/Protocol/JsonFields.h"
#include "optiml/Protocol/Side.h"

namespace optiml::protocol {

/// One side's back-to-back launches, or why they could not be measured.
struct SideEnergy {
  std::optional<std::string> Error; ///< Set: nothing else is.
  uint64_t Launches = 0;
  double Seconds = 0;
  double Joules = 0;
  double JoulesPerLaunch = 0;
  double AverageWatts = 0;
};

struct InstanceEnergy {
  std::string Instance;
  SideEnergy Reference; ///< Over all its windows.
  SideEnergy Candidate;
  /// Per round of one window a side (the order alternating), the
  /// reference's joules per launch over the candidate's: the spread of the
  /// saving within the run. Absent from a single round.
  std::optional<std::vector<double>> Ratios;

  SideEnergy &of(Side S) {
    return S == Side::Reference ? Reference : Candidate;
  }
};

struct EnergyReport {
  bool Available = false;
  std::string Reason; ///< Why not, when not available.
  std::string Method; ///< How, when available.
  std::vector<InstanceEnergy> Instances;
};

inline void to_json(Json &J, const SideEnergy &S) {
  if (S.Error) {
    J = Json{{"error", *S.Error}};
    return;
  }
  J = Json{{"launches", S.Launches},
           {"seconds", number(S.Seconds)},
           {"joules", number(S.Joules)},
           {"joules_per_launch", number(S.JoulesPerLaunch)},
           {"average_watts", number(S.AverageWatts)}};
}

/// The keys of a InstanceEnergy, in the order they are written.
inline constexpr auto keysOf(const InstanceEnergy &) {
  return std::make_tuple(key("instance", &InstanceEnergy::Instance),
                         key("reference", &InstanceEnergy::Reference),
                         key("candidate", &InstanceEnergy::Candidate),
                         key("ratios", &InstanceEnergy::Ratios));
}

inline void to_json(Json &J, const EnergyReport &E) {
  if (!E.Available) {
    J = Json{{"available", false}, {"reason", E.Reason}};
    return;
  }
  J = Json{
      {"available", true}, {"method", E.Method}, {"instances", E.Instances}};
}

inline void read(const Json &V, SideEnergy &S) {
  expectObject(V);
  field(V, "error", S.Error);
  if (S.Error)
    return;
  field(V, "launches", S.Launches);
  field(V, "seconds", S.Seconds);
  field(V, "joules", S.Joules);
  field(V, "joules_per_launch", S.JoulesPerLaunch);
  field(V, "average_watts", S.AverageWatts);
}

inline void read(const Json &V, EnergyReport &E) {
  expectObject(V);
  field(V, "available", E.Available);
  if (!E.Available) {
    field(V, "reason", E.Reason);
    return;
  }
  field(V, "method", E.Method);
  field(V, "instances", E.Instances);
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_ENERGYREPORT_H
