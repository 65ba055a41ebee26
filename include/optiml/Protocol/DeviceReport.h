//===- DeviceReport.h - The GPU a result was measured on --------*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md): the result's "device".
// The roofline peaks come with the method that produced them, because a
// roofline is only as good as its roof.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_DEVICEREPORT_H
#define OPTIML_PROTOCOL_DEVICEREPORT_H

#include "optiml/Protocol/JsonFields.h"

namespace optiml::protocol {

struct RooflinePeaks {
  double DramBytesPerS = 0;
  std::string DramMethod;
  double Fp32FlopsPerS = 0;
  std::string Fp32Method;
  int64_t SmClockKHz = 0;
  int64_t MemClockKHz = 0;
  int64_t BusWidthBits = 0;
  int64_t Fp32LanesPerSm = 0;
};

struct DeviceReport {
  std::string Name;
  std::string ComputeCapability; ///< "9.0"
  int64_t Sms = 0;
  uint64_t L2Bytes = 0;
  std::string PciBusId;
  int64_t Ordinal = 0;
  RooflinePeaks Peaks;
};

inline void to_json(Json &J, const RooflinePeaks &P) {
  J = Json{{"dram_bytes_per_s", number(P.DramBytesPerS)},
           {"dram_method", P.DramMethod},
           {"fp32_flops_per_s", number(P.Fp32FlopsPerS)},
           {"fp32_method", P.Fp32Method},
           {"sm_clock_khz", P.SmClockKHz},
           {"mem_clock_khz", P.MemClockKHz},
           {"bus_width_bits", P.BusWidthBits},
           {"fp32_lanes_per_sm", P.Fp32LanesPerSm}};
}

inline void to_json(Json &J, const DeviceReport &D) {
  J = Json{{"name", D.Name},
           {"cc", D.ComputeCapability},
           {"sms", D.Sms},
           {"l2_bytes", D.L2Bytes},
           {"pci_bus_id", D.PciBusId},
           {"ordinal", D.Ordinal},
           {"peaks", D.Peaks}};
}

inline void read(const Json &V, RooflinePeaks &P) {
  expectObject(V);
  field(V, "dram_bytes_per_s", P.DramBytesPerS);
  field(V, "dram_method", P.DramMethod);
  field(V, "fp32_flops_per_s", P.Fp32FlopsPerS);
  field(V, "fp32_method", P.Fp32Method);
  field(V, "sm_clock_khz", P.SmClockKHz);
  field(V, "mem_clock_khz", P.MemClockKHz);
  field(V, "bus_width_bits", P.BusWidthBits);
  field(V, "fp32_lanes_per_sm", P.Fp32LanesPerSm);
}

inline void read(const Json &V, DeviceReport &D) {
  expectObject(V);
  field(V, "name", D.Name);
  field(V, "cc", D.ComputeCapability);
  field(V, "sms", D.Sms);
  field(V, "l2_bytes", D.L2Bytes);
  field(V, "pci_bus_id", D.PciBusId);
  field(V, "ordinal", D.Ordinal);
  field(V, "peaks", D.Peaks);
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_DEVICEREPORT_H
