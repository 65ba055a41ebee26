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

/// The keys of a RooflinePeaks, in the order they are written.
inline constexpr auto keysOf(const RooflinePeaks &) {
  return std::make_tuple(
      key("dram_bytes_per_s", &RooflinePeaks::DramBytesPerS),
      key("dram_method", &RooflinePeaks::DramMethod),
      key("fp32_flops_per_s", &RooflinePeaks::Fp32FlopsPerS),
      key("fp32_method", &RooflinePeaks::Fp32Method),
      key("sm_clock_khz", &RooflinePeaks::SmClockKHz),
      key("mem_clock_khz", &RooflinePeaks::MemClockKHz),
      key("bus_width_bits", &RooflinePeaks::BusWidthBits),
      key("fp32_lanes_per_sm", &RooflinePeaks::Fp32LanesPerSm));
}

/// The keys of a DeviceReport, in the order they are written.
inline constexpr auto keysOf(const DeviceReport &) {
  return std::make_tuple(key("name", &DeviceReport::Name),
                         key("cc", &DeviceReport::ComputeCapability),
                         key("sms", &DeviceReport::Sms),
                         key("l2_bytes", &DeviceReport::L2Bytes),
                         key("pci_bus_id", &DeviceReport::PciBusId),
                         key("ordinal", &DeviceReport::Ordinal),
                         key("peaks", &DeviceReport::Peaks));
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_DEVICEREPORT_H
